package io.zkchaos.results;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A run's {@code cluster.jsonl}: the servers' own view over time ({@link ServerObservation}, one JSON object per
 * line), appended as the run goes so that a killed run keeps what was seen. Like the history, each line reaches the
 * operating system in one {@code write}, so a kill can cut at most the last line, which {@link #read} drops.
 */
public final class ClusterLog {

    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private ClusterLog() {
    }

    /**
     * Every observation in {@code file}, in file order; empty when the file does not exist (runs recorded before
     * the servers were observed).
     *
     * @throws IllegalArgumentException naming the file and line of a malformed line (other than a cut-off last one)
     */
    public static List<ServerObservation> read(Path file) {
        List<ServerObservation> out = new ArrayList<>();
        if (!Files.isRegularFile(file)) {
            return out;
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).trim();
            if (line.isEmpty()) {
                continue;
            }
            try {
                out.add(JSON.readValue(line, ServerObservation.class));
            } catch (IOException | RuntimeException e) {
                if (i == lines.size() - 1) {
                    break; // a line cut off by a kill: the observations before it stand
                }
                throw new IllegalArgumentException(file + " line " + (i + 1) + ": not a server observation: "
                        + e.getMessage(), e);
            }
        }
        return out;
    }

    /**
     * How often the leader changed in {@code observations}: each time a server is seen leading an epoch, or another
     * server leading, after a first leader was seen.
     */
    public static long leaderChanges(List<ServerObservation> observations) {
        String leader = null;
        long epoch = Long.MIN_VALUE;
        long changes = 0;
        for (ServerObservation o : observations) {
            if (!"leader".equals(o.mode()) || (o.node().equals(leader) && o.epoch() == epoch)) {
                continue;
            }
            if (leader != null) {
                changes++;
            }
            leader = o.node();
            epoch = o.epoch();
        }
        return changes;
    }

    /** Opens {@code file} for appending (created if missing). */
    public static Appender append(Path file) {
        return new Appender(file);
    }

    /** Appends to a cluster log; thread-safe (one line at a time, in the order of the calls). */
    public static final class Appender extends JsonLinesAppender<ServerObservation> {
        private Appender(Path file) {
            super(file, JSON, "cluster log");
        }
    }
}
