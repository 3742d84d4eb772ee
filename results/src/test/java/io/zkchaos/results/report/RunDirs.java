package io.zkchaos.results.report;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Checker;
import io.zkchaos.checkers.CheckerOptions;
import io.zkchaos.checkers.Checkers;
import io.zkchaos.checkers.codec.HistoryFiles;
import io.zkchaos.checkers.evidence.EvidenceReport;
import io.zkchaos.checkers.history.History;
import io.zkchaos.results.CheckSettings;
import io.zkchaos.results.ClusterLog;
import io.zkchaos.results.ConfigFile;
import io.zkchaos.results.RunDirectory;
import io.zkchaos.results.RunSettings;
import io.zkchaos.results.ServerObservation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;

/** Writes run directories as a run leaves them (config, history, cluster log, results) and renders them. */
final class RunDirs {

    private RunDirs() {
    }

    /** A run's settings as a run saves them: the workload and nemesis named, seed 1, 3 nodes, the rest defaults. */
    static RunSettings run(String workload, String nemesis) {
        return run(workload, nemesis, 1, 3);
    }

    /** The same, with the seed and the number of nodes. */
    static RunSettings run(String workload, String nemesis, long seed, int nodes) {
        return new RunSettings(workload + "-" + nemesis,
                new RunSettings.Cluster("local", nodes, "3.9.5", "AUTO", "zookeeper", List.of()),
                new RunSettings.Workload(workload, 5, Map.of("keys", 3L), Duration.ofSeconds(4),
                        Duration.ofSeconds(3), "THREAD"),
                new RunSettings.Nemesis(nemesis, Duration.ofSeconds(10), Duration.ofSeconds(10)),
                CheckerOptions.defaults(), new RunSettings.Timing(Duration.ofSeconds(60), Duration.ofSeconds(10)),
                seed, "store", new RunSettings.Storage(false, true));
    }

    /** What {@code check --report} saves for a history file called {@code title}. */
    static CheckSettings check(String title) {
        return new CheckSettings(title, "/histories/" + title, "linearizable", "cas-register",
                CheckerOptions.defaults().withModel("cas-register", 0L));
    }

    /** A run directory with {@code history} checked by {@code checker}; {@code cluster} may be empty. */
    static RunDirectory write(Path dir, ConfigFile config, History history, Checker checker,
                              List<ServerObservation> cluster) {
        return write(dir, config, history, checker, cluster, null);
    }

    /**
     * The same, with the evidence result ({@link io.zkchaos.checkers.evidence.Minimum#judge}) added to the results
     * and its details written to {@code evidence.json}, as the runner does.
     */
    static RunDirectory write(Path dir, ConfigFile config, History history, Checker checker,
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
            CheckResult result = Checkers.compose(config instanceof RunSettings r ? r.workload().name() : "check",
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
