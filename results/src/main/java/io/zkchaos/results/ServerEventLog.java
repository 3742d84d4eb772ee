package io.zkchaos.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.zkchaos.checkers.servers.ServerEvent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A run's {@code servers.jsonl}: what happened to every server process ({@link ServerEvent}: started, exited, its
 * clock moved; one JSON object per line), appended as the run goes so that a killed run keeps what was seen. As in
 * the history, each line reaches the operating system in one {@code write} and is flushed at once (no buffer), so a
 * kill can cut at most the last line, which {@link #read} drops. Fields that are null (and no last lines) are left
 * out.
 */
public final class ServerEventLog {

    private static final ObjectMapper JSON = JsonMapper.builder()
            .serializationInclusion(JsonInclude.Include.NON_EMPTY).build();

    private ServerEventLog() {
    }

    /**
     * Every event in {@code file}, in file order; empty when the file does not exist (runs recorded before the
     * server processes were watched).
     *
     * @throws IllegalArgumentException naming the file and line of a malformed line (other than a cut-off last one)
     */
    public static List<ServerEvent> read(Path file) {
        return new ArrayList<>(io.zkchaos.checkers.servers.ServerAccount.readEvents(file));
    }


    /** Opens {@code file} for appending (created if missing). */
    public static Appender append(Path file) {
        return new Appender(file);
    }

    /** Appends to a servers file; thread-safe (one line at a time, in the order of the calls). */
    public static final class Appender extends JsonLinesAppender<ServerEvent> {
        private Appender(Path file) {
            super(file, JSON, "servers file");
        }
    }
}
