package io.zkchaos.checkers.codec;

import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.MalformedHistoryException;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Reads and writes history files, choosing the format by extension: {@code .jsonl} and {@code .json} are JSON Lines
 * ({@link JsonLinesCodec}), {@code .edn} and {@code .txt} are EDN ({@link EdnHistoryCodec}); any other name is read by
 * looking at its first non-blank characters and written as JSON Lines.
 */
public final class HistoryFiles {

    /** The two history formats. */
    public enum Format {
        JSON_LINES, EDN
    }

    private HistoryFiles() {
    }

    /**
     * Reads a history, strictly.
     *
     * @throws MalformedHistoryException for a file that is missing, unreadable, not text, or not a valid history; the
     *                                   message names the file, the line (and column where it helps) and the problem
     */
    public static History read(Path file) {
        return read(file, ReadOptions.STRICT);
    }

    /**
     * Reads a history with {@code options}; see {@link #read(Path)}. The file is streamed in blocks straight into the
     * history's compact columns: it is never held whole in memory, as bytes or as text.
     */
    public static History read(Path file, ReadOptions options) {
        String source = file.toString();
        try {
            Format format = formatOf(file);
            if (format == null) {
                format = sniff(file);
            }
            long size = Files.size(file); // to size the columns
            try (InputStream in = Files.newInputStream(file)) {
                return format == Format.EDN ? EdnHistoryCodec.read(in, source, size)
                        : JsonLinesCodec.read(in, source, options, size);
            }
        } catch (UncheckedIOException e) {
            throw unreadable(source, e.getCause());
        } catch (IOException e) {
            throw unreadable(source, e);
        }
    }

    private static MalformedHistoryException unreadable(String source, IOException e) {
        if (e instanceof NoSuchFileException) {
            return new MalformedHistoryException(source + ": no such file", -1, e);
        }
        if (e instanceof CharacterCodingException) {
            return new MalformedHistoryException(source + ": not UTF-8 text", -1, e);
        }
        return new MalformedHistoryException(source + ": cannot read: " + e, -1, e);
    }

    /** Writes {@code history} in the format its name calls for, replacing the file. */
    public static void write(Path file, History history) {
        Format format = formatOf(file);
        try {
            if (format == Format.EDN) {
                try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
                    EdnHistoryCodec.write(out, history.ops());
                }
            } else {
                try (OutputStream out = new java.io.BufferedOutputStream(Files.newOutputStream(file))) {
                    JsonLinesCodec.write(out, history.ops());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /** The format a file name calls for, or null when the extension says nothing. */
    public static Format formatOf(Path file) {
        String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".jsonl") || name.endsWith(".json")) {
            return Format.JSON_LINES;
        }
        if (name.endsWith(".edn") || name.endsWith(".txt")) {
            return Format.EDN;
        }
        return null;
    }

    /**
     * Guesses by content: a JSON object starts {@code {"}, an EDN op map {@code {:}; a vector, list or comment means
     * EDN. Only the first few kilobytes are looked at.
     */
    static Format sniff(Path file) throws IOException {
        byte[] head;
        try (var in = Files.newInputStream(file)) {
            head = in.readNBytes(4096);
        }
        String text = new String(head, StandardCharsets.UTF_8);
        int i = 0;
        while (i < text.length() && (Character.isWhitespace(text.charAt(i)) || text.charAt(i) == ','
                || text.charAt(i) == '\uFEFF')) {
            i++;
        }
        if (i >= text.length()) {
            return Format.JSON_LINES;
        }
        char c = text.charAt(i);
        if (c == '{') {
            int j = i + 1;
            while (j < text.length() && Character.isWhitespace(text.charAt(j))) {
                j++;
            }
            return j < text.length() && text.charAt(j) == ':' ? Format.EDN : Format.JSON_LINES;
        }
        return c == '[' || c == '(' || c == ';' || c == '#' ? Format.EDN : Format.JSON_LINES;
    }

    /** Convenience for tests and tools: the ops of {@code history} written to a string in {@code format}. */
    public static String toText(History history, Format format) {
        if (format == Format.EDN) {
            java.io.StringWriter out = new java.io.StringWriter();
            EdnHistoryCodec.write(out, history.ops());
            return out.toString();
        }
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        JsonLinesCodec.write(out, history.ops());
        return out.toString(StandardCharsets.UTF_8);
    }
}
