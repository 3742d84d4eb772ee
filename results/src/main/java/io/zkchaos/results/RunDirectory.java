package io.zkchaos.results;

import com.fasterxml.jackson.databind.JsonNode;
import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.evidence.EvidenceReport;
import io.zkchaos.checkers.servers.ServerEvent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One scenario run's directory, with a fixed layout written in phases so that a crash keeps what was recorded:
 *
 * <pre>
 * config.json     what the history comes from ({@link ConfigFile}), written at start
 * history.jsonl   the history, appended as the run goes
 * nemesis.json    every nemesis action, what it did, and the seed
 * schedule.json   the fault schedule the run executed, as {@code run --schedule} takes it
 * cluster.jsonl   the servers' own view (leader, follower, unreachable) whenever it changed, as the run goes
 * servers.jsonl   every server process's start and exit, by whom, and its clock's moves, as the run goes
 * nodes/          per node: data dir, config, log file, pid file
 * results.json    the checkers' results, written after checking
 * index.html      the report, rendered last (and re-renderable from the files above)
 * </pre>
 */
public final class RunDirectory {

    public static final String CONFIG = "config.json";
    public static final String HISTORY = "history.jsonl";
    public static final String NEMESIS = "nemesis.json";
    public static final String SCHEDULE = "schedule.json";
    public static final String CLUSTER = "cluster.jsonl";
    public static final String SERVERS = "servers.jsonl";
    public static final String RESULTS = "results.json";
    public static final String EVIDENCE = "evidence.json";
    public static final String REPORT = "index.html";
    public static final String NODES = "nodes";

    private final Path path;

    public RunDirectory(Path path) {
        this.path = Objects.requireNonNull(path, "path").toAbsolutePath().normalize();
    }

    public Path path() {
        return path;
    }

    public Path configFile() {
        return path.resolve(CONFIG);
    }

    public Path historyFile() {
        return path.resolve(HISTORY);
    }

    public Path nemesisFile() {
        return path.resolve(NEMESIS);
    }

    public Path clusterFile() {
        return path.resolve(CLUSTER);
    }

    /** {@code servers.jsonl}: the server processes' starts, exits and clock moves ({@link ServerEventLog}). */
    public Path serversFile() {
        return path.resolve(SERVERS);
    }

    /**
     * What happened to the server processes, in the order it was recorded; empty when the run recorded none (runs
     * made before it was recorded).
     *
     * @throws IllegalArgumentException naming the line that is not a server event
     */
    public List<ServerEvent> readServerEvents() {
        return ServerEventLog.read(serversFile());
    }

    public Path resultsFile() {
        return path.resolve(RESULTS);
    }

    public Path reportFile() {
        return path.resolve(REPORT);
    }

    /** The directory of one node's data, config, log and pid file; created on demand. */
    public Path nodeDir(String node) {
        return createDirectories(path.resolve(NODES).resolve(node));
    }

    /** Writes what the history comes from: a run's settings, or what a check read. */
    public void writeConfig(ConfigFile config) {
        Json.write(configFile(), config);
    }

    /**
     * Reads {@code config.json} back into the type that wrote it; empty when there is none.
     *
     * @throws UncheckedIOException if it cannot be read as a run's or a check's configuration
     */
    public Optional<ConfigFile> readConfig() {
        return Files.isRegularFile(configFile()) ? Optional.of(Json.read(configFile(), ConfigFile.class))
                : Optional.empty();
    }

    /** Writes the nemesis schedule and seed. */
    public void writeNemesis(Object schedule) {
        Json.write(nemesisFile(), schedule);
    }

    public Path scheduleFile() {
        return path.resolve(SCHEDULE);
    }

    /** Writes the fault schedule the run executed. */
    public void writeSchedule(Object schedule) {
        Json.write(scheduleFile(), schedule);
    }

    /** Writes the checkers' verdict. */
    public void writeResults(CheckResult result) {
        Json.write(resultsFile(), ResultsFile.of(result));
    }

    /** Reads the saved verdict back as a tree, for a look at the file itself ({@link #readCheckResult()}: typed). */
    public JsonNode readResults() {
        return Json.read(resultsFile());
    }

    /**
     * Reads the saved verdict back into the type that wrote it, every checker's details as their {@link
     * io.zkchaos.checkers.Findings} kind ({@link io.zkchaos.checkers.Findings.Untyped} for details saved without one).
     *
     * @throws UncheckedIOException if the file is missing or is not a results file
     */
    public CheckResult readCheckResult() {
        try {
            return Json.read(resultsFile(), ResultsFile.class).toCheckResult();
        } catch (IllegalArgumentException e) {
            throw new UncheckedIOException("cannot read " + resultsFile() + ": " + e.getMessage(),
                    new IOException(e));
        }
    }

    public Path evidenceFile() {
        return path.resolve(EVIDENCE);
    }

    /** Writes what the run exercised and how it measured up to its minimum. */
    public void writeEvidence(EvidenceReport evidence) {
        Json.write(evidenceFile(), evidence);
    }

    /** What the run exercised, if it was recorded (runs checked before it was, or a crashed run, have none). */
    public Optional<EvidenceReport> readEvidence() {
        if (!Files.isRegularFile(evidenceFile())) {
            return Optional.empty();
        }
        return Optional.of(Json.read(evidenceFile(), EvidenceReport.class));
    }

    public boolean hasResults() {
        return Files.isRegularFile(resultsFile());
    }

    /** Whether this directory holds a history (what makes it a run directory that can be reported). */
    public boolean hasHistory() {
        return Files.isRegularFile(historyFile());
    }

    static Path createDirectories(Path dir) {
        try {
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create directory " + dir + ": " + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return path.toString();
    }
}
