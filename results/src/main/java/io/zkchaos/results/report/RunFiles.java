package io.zkchaos.results.report;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.codec.HistoryFiles;
import io.zkchaos.checkers.codec.ReadOptions;
import io.zkchaos.checkers.evidence.EvidenceReport;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.servers.ServerEvent;
import io.zkchaos.results.ClusterLog;
import io.zkchaos.results.ConfigFile;
import io.zkchaos.results.RunDirectory;
import io.zkchaos.results.ServerObservation;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The saved files of one run directory, read back: the only input of a report. Nothing of a live run reaches the
 * page except through these files, so any run, old or crashed, re-renders the same way.
 *
 * @param directory the run directory
 * @param config    {@code config.json}, or null when missing or unreadable (then a note says why)
 * @param history   {@code history.jsonl} (a cut-off last line, as a killed run leaves it, is dropped with a note)
 * @param results   {@code results.json}, or null when the history was never checked
 * @param cluster   {@code cluster.jsonl}'s observations, empty when missing
 * @param serverEvents {@code servers.jsonl}'s events (server processes started, exited, clocks moved), empty when
 *                  missing or unreadable
 * @param serverEventsRecorded whether the run directory has a readable {@code servers.jsonl} (runs recorded before
 *                  the harness watched the server processes have none)
 * @param evidence  {@code evidence.json}: what the run exercised and how it measured up to its minimum; empty for
 *                  a run recorded before runs wrote it, a history checked with {@code check --report}, a run that
 *                  stopped before its checkers ran, or a file that cannot be read (then a note says why)
 * @param notes     what was missing or repaired while reading, for the page
 */
public record RunFiles(RunDirectory directory, ConfigFile config, History history, CheckResult results,
                       List<ServerObservation> cluster, List<ServerEvent> serverEvents, boolean serverEventsRecorded,
                       Optional<EvidenceReport> evidence, List<String> notes) {

    public RunFiles {
        cluster = List.copyOf(cluster);
        serverEvents = List.copyOf(serverEvents);
        Objects.requireNonNull(evidence, "evidence");
        notes = List.copyOf(notes);
    }

    /**
     * Reads a run directory.
     *
     * @throws IllegalArgumentException if it holds no {@code history.jsonl}
     * @throws io.zkchaos.checkers.history.MalformedHistoryException if the history cannot be read
     */
    public static RunFiles read(RunDirectory dir) {
        if (!dir.hasHistory()) {
            throw new IllegalArgumentException(dir.path() + " is not a run directory: it has no "
                    + RunDirectory.HISTORY);
        }
        List<String> notes = new ArrayList<>();
        History history = HistoryFiles.read(dir.historyFile(), ReadOptions.tolerateTruncatedTail(notes::add));
        CheckResult results = dir.hasResults() ? dir.readCheckResult() : null;
        if (results == null) {
            notes.add("no " + RunDirectory.RESULTS + ": this history was never checked (the run stopped before "
                    + "its checkers ran); ./zkchaos check --report DIR checks it");
        }
        List<ServerObservation> cluster = ClusterLog.read(dir.clusterFile());
        if (Cards.hasUntyped(results)) {
            notes.add(RunDirectory.RESULTS + " was written before findings had a kind (by an earlier zk-chaos): "
                    + "each checker's verdict, explanation and saved details are shown, without the tables of its "
                    + "findings (checking its history again with ./zkchaos check gives them)");
        }
        List<ServerEvent> events = readServerEvents(dir, notes);
        return new RunFiles(dir, readConfig(dir, notes), history, results, cluster, events == null ? List.of() : events,
                events != null, readEvidence(dir, notes), notes);
    }

    /**
     * {@code servers.jsonl}, or null when the run directory has none or it cannot be read (then a note says why): a
     * broken line must not cost the rest of the page.
     */
    static List<ServerEvent> readServerEvents(RunDirectory dir, List<String> notes) {
        if (!Files.isRegularFile(dir.serversFile())) {
            return null;
        }
        try {
            return dir.readServerEvents();
        } catch (IllegalArgumentException | UncheckedIOException e) {
            notes.add(RunDirectory.SERVERS + " cannot be read, so the server processes' starts and exits are not "
                    + "drawn: " + e.getMessage());
            return null;
        }
    }

    /** {@code evidence.json}, typed; one that cannot be read is left out with a note, as the page still renders. */
    static Optional<EvidenceReport> readEvidence(RunDirectory dir, List<String> notes) {
        try {
            return dir.readEvidence();
        } catch (UncheckedIOException e) {
            notes.add(RunDirectory.EVIDENCE + " cannot be read, so what the run exercised is not shown: "
                    + e.getMessage());
            return Optional.empty();
        }
    }

    /**
     * {@code config.json}, typed; one that cannot be read (a layout from before runs saved their configuration in
     * parts, or another tool's) is left out with a note, as the page still renders.
     */
    static ConfigFile readConfig(RunDirectory dir, List<String> notes) {
        try {
            return dir.readConfig().orElse(null);
        } catch (UncheckedIOException e) {
            notes.add(RunDirectory.CONFIG + " cannot be read as a run's or a check's configuration, so it is not "
                    + "shown: " + e.getMessage());
            return null;
        }
    }
}
