package io.zkchaos.checkers.servers;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * What the {@code server} checker judges: the servers' own account of one run.
 *
 * @param events          the harness's server events ({@code servers.jsonl}), any order; empty for a run from before
 *                        them (then crashes are not judged and log times come from the first start marker)
 * @param nodes           every server of the run, in order
 * @param logs            each server's log lines as written; a server of {@code nodes} without an entry here had no
 *                        log to read
 * @param faults          the run's faults, with what they excuse
 * @param historyEndNanos the history's last time (ns since its start): an open fault window ends there
 */
public record ServerAccount(List<ServerEvent> events, List<String> nodes, Map<String, List<String>> logs,
                            List<FaultWindow> faults, long historyEndNanos) {

    /** The file of server events in a run directory. */
    public static final String EVENTS_FILE = "servers.jsonl";
    /** A server's log in a run directory: {@code nodes/<node>/server.log}. */
    public static final String LOG_FILE = "server.log";

    public ServerAccount {
        events = List.copyOf(events);
        faults = List.copyOf(faults);
        Map<String, List<String>> copy = new LinkedHashMap<>();
        logs.forEach((node, lines) -> copy.put(node, List.copyOf(lines)));
        logs = java.util.Collections.unmodifiableMap(copy);
        TreeSet<String> all = new TreeSet<>(NODE_ORDER);
        all.addAll(nodes);
        all.addAll(logs.keySet());
        events.forEach(e -> all.add(e.node()));
        nodes = List.copyOf(all);
    }

    /** n2 before n10. */
    private static final java.util.Comparator<String> NODE_ORDER = java.util.Comparator
            .comparingInt(String::length).thenComparing(java.util.Comparator.naturalOrder());

    /**
     * A run directory's account: its {@value #EVENTS_FILE} (absent in old runs) and the {@value #LOG_FILE} of every
     * directory under {@code nodes/}.
     *
     * @throws UncheckedIOException     naming a file that exists but cannot be read
     * @throws IllegalArgumentException naming the line of {@value #EVENTS_FILE} that is no event
     */
    public static ServerAccount fromRunDirectory(Path run, List<FaultWindow> faults, long historyEndNanos) {
        List<ServerEvent> events = readEvents(run.resolve(EVENTS_FILE));
        List<String> nodes = new ArrayList<>();
        Map<String, List<String>> logs = new LinkedHashMap<>();
        Path dir = run.resolve("nodes");
        if (Files.isDirectory(dir)) {
            try (Stream<Path> s = Files.list(dir)) {
                s.filter(Files::isDirectory).forEach(p -> nodes.add(p.getFileName().toString()));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot list " + dir + ": " + e, e);
            }
        }
        for (String node : new TreeSet<>(nodes)) {
            Path log = dir.resolve(node).resolve(LOG_FILE);
            if (Files.isRegularFile(log)) {
                try {
                    logs.put(node, Files.readAllLines(log, StandardCharsets.UTF_8));
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read " + log + ": " + e, e);
                }
            }
        }
        return new ServerAccount(events, nodes, logs, faults, historyEndNanos);
    }

    /**
     * The events of a {@value #EVENTS_FILE}, one a line, in file order; none when it does not exist (runs recorded
     * before the server processes were watched). A last line cut off by a kill is dropped: the events before it stand.
     *
     * @throws UncheckedIOException     when it exists but cannot be read
     * @throws IllegalArgumentException naming the file and line of a malformed line (other than a cut-off last one)
     */
    public static List<ServerEvent> readEvents(Path file) {
        if (!Files.isRegularFile(file)) {
            return List.of();
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e, e);
        }
        ObjectMapper json = new ObjectMapper();
        List<ServerEvent> events = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).isBlank()) {
                continue;
            }
            try {
                events.add(Objects.requireNonNull(json.readValue(lines.get(i), ServerEvent.class)));
            } catch (IOException | RuntimeException e) {
                if (i == lines.size() - 1) {
                    break;
                }
                throw new IllegalArgumentException(file + " line " + (i + 1) + ": not a server event: "
                        + e.getMessage(), e);
            }
        }
        return events;
    }

}
