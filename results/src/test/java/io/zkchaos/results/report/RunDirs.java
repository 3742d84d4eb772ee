package io.zkchaos.results.report;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Checker;
import io.zkchaos.checkers.Checkers;
import io.zkchaos.checkers.codec.HistoryFiles;
import io.zkchaos.checkers.evidence.EvidenceReport;
import io.zkchaos.checkers.history.History;
import io.zkchaos.results.ClusterLog;
import io.zkchaos.results.RunDirectory;
import io.zkchaos.results.ServerObservation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;

/** Writes run directories as a run leaves them (config, history, cluster log, results) and renders them. */
final class RunDirs {

    private RunDirs() {
    }

    /** A run directory with {@code history} checked by {@code checker}; {@code cluster} may be empty. */
    static RunDirectory write(Path dir, Map<String, Object> config, History history, Checker checker,
                              List<ServerObservation> cluster) {
        return write(dir, config, history, checker, cluster, null);
    }

    /**
     * The same, with the evidence result ({@link io.zkchaos.checkers.evidence.Minimum#judge}) added to the results
     * and its details written to {@code evidence.json}, as the runner does.
     */
    static RunDirectory write(Path dir, Map<String, Object> config, History history, Checker checker,
                              List<ServerObservation> cluster, CheckResult evidence) {
        RunDirectory run = new RunDirectory(dir);
        run.writeConfig(config);
        HistoryFiles.write(run.historyFile(), history);
        if (!cluster.isEmpty()) {
            try (ClusterLog.Appender log = ClusterLog.append(run.clusterFile())) {
                cluster.forEach(log::write);
            }
        }
        if (checker != null) {
            CheckResult result = Checkers.compose(String.valueOf(config.getOrDefault("workload", "check")),
                    List.of(checker)).check(history);
            run.writeResults(evidence == null ? result : Checkers.withPart(result, evidence));
        }
        if (evidence != null) {
            run.writeEvidence((EvidenceReport) evidence.details());
        }
        return run;
    }

    /** Renders the run's report to its index.html and parses it. */
    static Document render(RunDirectory run) {
        Path page = RunReport.write(run);
        try {
            return Jsoup.parse(Files.readString(page));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ServerObservation server(long ms, String node, String mode, long epoch) {
        return new ServerObservation(ms * 1_000_000L, node, mode, epoch, "running", null);
    }
}
