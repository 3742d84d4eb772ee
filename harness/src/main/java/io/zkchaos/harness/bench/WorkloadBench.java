package io.zkchaos.harness.bench;

import io.zkchaos.checkers.codec.HistoryFiles;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Operation;
import io.zkchaos.harness.run.RunOutcome;
import io.zkchaos.harness.run.Runner;
import io.zkchaos.harness.run.config.Clients;
import io.zkchaos.harness.run.config.RunConfig;
import io.zkchaos.results.RunDirectory;
import io.zkchaos.results.report.SuiteIndex;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Throughput of each workload with no faults and under each nemesis, measured on real runs: for every pair, one
 * short run, then the history's client operations counted over the time clients worked (main phase and recovery).
 * Prints one row per run, and at the end the path of the suite index (every run with a link to its report).
 */
public final class WorkloadBench {

    /** One run's figures. */
    public record Row(String workload, String nemesis, String verdict, long operations, long ok, long info,
                      double seconds) {
        double okPerSecond() {
            return seconds <= 0 ? 0 : ok / seconds;
        }
    }

    /** Clients work through the recovery time too, so rates are over main phase + recovery. */
    private static final Duration RECOVER = Duration.ofSeconds(3);

    private WorkloadBench() {
    }

    /**
     * Runs every workload × nemesis pair for {@code timeLimit} each and prints the table to {@code out}.
     *
     * @param store where the run directories go (kept, so any row can be looked at)
     */
    public static List<Row> run(PrintWriter out, List<String> workloads, List<String> nemeses, Duration timeLimit,
                                int concurrency, double rate, long seed, Path store) throws InterruptedException {
        out.printf("%-17s %-17s %-8s %9s %9s %7s %9s%n", "workload", "nemesis", "verdict", "ops", "ok", "info",
                "ok/s");
        out.flush();
        List<Row> rows = new ArrayList<>();
        List<RunDirectory> runs = new ArrayList<>();
        for (String w : workloads) {
            for (String n : nemeses) {
                // Client faults run with clients in processes, for the workloads that have them; not otherwise.
                boolean clientFaults = io.zkchaos.nemesis.Nemeses.require(n).needsClientProcesses();
                if (clientFaults && !io.zkchaos.workloads.Workloads.require(w).processClients()) {
                    continue;
                }
                RunConfig config = RunConfig.builder().workload(w).nemesis(n).timeLimit(timeLimit)
                        .clients(clientFaults ? Clients.PROCESS : Clients.THREAD)
                        .faultFor(timeLimit.dividedBy(4)).healFor(timeLimit.dividedBy(4))
                        .recover(RECOVER).concurrency(concurrency).rate(rate).seed(seed).out(store).build();
                RunOutcome outcome = new Runner(new PrintWriter(new StringWriter()), Duration.ofHours(1)).run(config);
                runs.add(outcome.directory());
                History h = HistoryFiles.read(outcome.directory().historyFile());
                List<Operation> ops = h.operations();
                long ok = ops.stream().filter(Operation::isOk).count();
                long info = ops.stream().filter(Operation::isInfo).count();
                Row row = new Row(w, n, outcome.result().validity().name().toLowerCase(java.util.Locale.ROOT),
                        ops.size(), ok, info, timeLimit.plus(RECOVER).toMillis() / 1000.0);
                rows.add(row);
                out.printf("%-17s %-17s %-8s %9d %9d %7d %9.0f%n", w, n, row.verdict(), row.operations(), ok, info,
                        row.okPerSecond());
                out.flush();
            }
        }
        Path index = SuiteIndex.write(store.resolve(RunDirectory.REPORT), "workloads bench", runs);
        out.println("index of the runs' reports: " + index.toAbsolutePath());
        out.flush();
        return rows;
    }
}
