package io.zkchaos.results;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** JSON files of a run, written atomically (a temp file renamed into place) so a crash never leaves half a file. */
public final class Json {

    public static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            // Whole numbers in untyped values (a lost value, a stale read's value) come back as Long, as the
            // history's codec reads them, so that findings read back equal the findings written.
            .enable(com.fasterxml.jackson.databind.DeserializationFeature.USE_LONG_FOR_INTS)
            // Durations and instants as ISO-8601 text ("PT20S"), readable in the file and by people.
            .registerModule(new com.fasterxml.jackson.datatype.jsr310.JavaTimeModule())
            .disable(SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS)
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);

    private Json() {
    }

    public static void write(Path file, Object value) {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            RunDirectory.createDirectories(file.toAbsolutePath().getParent());
            MAPPER.writeValue(tmp.toFile(), value);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /** Reads {@code file} back into the type that wrote it. */
    public static <T> T read(Path file, Class<T> type) {
        try {
            return MAPPER.readValue(file.toFile(), type);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + " as " + type.getSimpleName() + ": "
                    + e.getMessage(), e);
        }
    }

    /**
     * Reads a file a person may have written or edited into {@code type}.
     *
     * @param what what the file should be, for the message (e.g. {@code a fault schedule})
     * @throws IllegalArgumentException naming the file and what is wrong: missing, not JSON, or a value its type
     *                                  refuses (the refusal's own message)
     */
    public static <T> T readInput(Path file, Class<T> type, String what) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException(file + ": no such file (" + what + " expected)");
        }
        try {
            return MAPPER.readValue(file.toFile(), type);
        } catch (IOException | RuntimeException e) {
            Throwable t = e;
            while (t.getCause() != null && t.getCause() != t) {
                t = t.getCause();
            }
            throw new IllegalArgumentException(file + ": not " + what + ": " + t.getMessage(), e);
        }
    }

    public static JsonNode read(Path file) {
        try {
            return MAPPER.readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }
}
