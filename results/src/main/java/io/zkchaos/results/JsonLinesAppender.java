package io.zkchaos.results;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Appends records to a JSON Lines file of a run directory, a whole line at a time and unbuffered, so that a run that
 * is killed keeps every line written before (a last line cut off by the kill is for the reader to drop). Thread-safe:
 * lines are written one at a time, in the order of the calls. The run-directory files that grow during a run
 * ({@code cluster.jsonl}, {@code servers.jsonl}) each have one.
 *
 * @param <T> what a line holds
 */
public class JsonLinesAppender<T> implements AutoCloseable {
    private final Path file;
    private final ObjectMapper json;
    private final String what;
    private final FileOutputStream out;
    private boolean closed;

    /**
     * Opens {@code file} for appending (created with its directory if missing).
     *
     * @param what what the file is, for errors ({@code "cluster log"})
     * @throws UncheckedIOException naming the file when it cannot be opened
     */
    protected JsonLinesAppender(Path file, ObjectMapper json, String what) {
        this.file = file;
        this.json = json;
        this.what = what;
        try {
            RunDirectory.createDirectories(file.toAbsolutePath().getParent());
            this.out = new FileOutputStream(file.toFile(), true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Writes one line, whole, before returning.
     *
     * @throws IllegalStateException once closed
     */
    public synchronized void write(T record) {
        if (closed) {
            throw new IllegalStateException(what + " " + file + " is closed: cannot record " + record);
        }
        try {
            out.write((json.writeValueAsString(record) + "\n").getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to " + file + ": " + e.getMessage(), e);
        }
    }

    /** The file it appends to. */
    public Path file() {
        return file;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close " + file + ": " + e.getMessage(), e);
        }
    }
}
