package io.zkchaos.harness.cli;

import io.zkchaos.harness.bench.StalledLeaderBench;
import io.zkchaos.harness.bench.WorkloadBench;
import io.zkchaos.harness.suite.ScenarioTimes;
import io.zkchaos.harness.suite.SuiteLedger;
import io.zkchaos.harness.suite.SuiteTable;
import io.zkchaos.nemesis.Nemeses;
import io.zkchaos.workloads.Workloads;
import io.zkchaos.results.Verdicts;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code zkchaos bench WHAT}: benchmarks that print figures (never assertions). {@code workloads} runs real
 * scenarios; the others delegate to each module's bench.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Print benchmark figures: checker, recorder, read-model, proxy, cluster, lazyfs, election, herd, report, workloads, stalled-leader, suite, hunt.")
public final class BenchCommand implements Callable<Integer> {

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "WHAT", description = "checker | recorder | read-model | proxy | cluster | lazyfs | election | "
            + "herd | report | workloads | stalled-leader | suite (STORE...: the chaos suite's wall times, phases and "
            + "pass counts from its ledgers; --times-file FILE) | hunt (--rows FILE --budget D --seed S: rows of run "
            + "configurations in turn; runs, findings by kind, findings per hour)")
    String what;

    @Parameters(index = "1..*", paramLabel = "ARG", description = "passed to the benchmark (see docs)")
    List<String> args = new ArrayList<>();

    @Option(names = "--workloads", split = ",", description = "workloads bench: which (default: all)")
    List<String> workloads;

    @Option(names = "--nemeses", split = ",", description = "workloads bench: which (default: all)")
    List<String> nemeses;

    @Option(names = "--time-limit", defaultValue = "20s", converter = Durations.class,
            description = "workloads bench: main phase of each run (default: ${DEFAULT-VALUE})")
    Duration timeLimit;

    @Option(names = "--concurrency", defaultValue = "5", description = "workloads bench: clients (default: 5)")
    int concurrency;

    @Option(names = "--rate", defaultValue = "100", description = "workloads bench: register/set operations per "
            + "second over all clients, 0 for unthrottled (default: ${DEFAULT-VALUE})")
    double rate;

    @Option(names = "--out", defaultValue = "store/bench", description = "workloads and stalled-leader benches: "
            + "run directories; report bench: its pages go to OUT/report")
    Path out;

    @Option(names = "--times-file", paramLabel = "FILE", description = "suite bench: also write each scenario's "
            + "median wall time to FILE, the expected times that balance the suite's shards (-Dzkchaos.chaos.times)")
    Path timesFile;

    @Option(names = "--runs", defaultValue = "10", description = "stalled-leader bench: runs (seeds) per workload "
            + "(default: ${DEFAULT-VALUE}); election bench: runs per measurement (its own default)")
    int runs;

    /** The report bench takes {@code --out} too (picocli gives it to this command): its pages go to OUT/report. */
    private static String[] withOut(String[] rest, Path dir) {
        String[] all = java.util.Arrays.copyOf(rest, rest.length + 2);
        all[rest.length] = "--out";
        all[rest.length + 1] = dir.toString();
        return all;
    }

    /**
     * The election bench takes {@code --runs} too, but picocli gives it to this command (the stalled-leader bench's
     * option): handed on when the user named it, so that it is not silently dropped.
     */
    private String[] withRuns(String[] rest) {
        if (!spec.commandLine().getParseResult().hasMatchedOption("--runs")) {
            return rest;
        }
        String[] all = java.util.Arrays.copyOf(rest, rest.length + 2);
        all[rest.length] = "--runs";
        all[rest.length + 1] = Integer.toString(runs);
        return all;
    }

    @Override
    public Integer call() throws Exception {
        String[] rest = args.toArray(String[]::new);
        try {
            return delegate(rest);
        } catch (IllegalArgumentException e) {
            // A benchmark's own options were wrong: its message names the option.
            spec.commandLine().getErr().println("error: bench " + what + ": " + e.getMessage());
            return Verdicts.Exit.ERROR;
        }
    }

    private void suite(List<Path> stores) {
        var stdout = spec.commandLine().getOut();
        SuiteTable.print(stdout, stores);
        if (timesFile != null) {
            List<SuiteLedger.Entry> entries = SuiteLedger.read(stores);
            ScenarioTimes times = ScenarioTimes.fromLedger(entries);
            if (times.rows().isEmpty()) {
                throw new IllegalArgumentException("--times-file " + timesFile + ": no scenario ran in the ledgers "
                        + "under " + stores + "; nothing to write");
            }
            List<String> suites = entries.stream().map(SuiteLedger.Entry::suite).distinct().sorted().toList();
            times.write(timesFile, suites.size() + " suite run(s), " + entries.size() + " scenario run(s): "
                    + String.join(", ", suites));
            stdout.println();
            stdout.println("expected times of " + times.rows().size() + " scenario(s) written to " + timesFile);
            stdout.flush();
        }
    }

    private int delegate(String[] rest) throws Exception {
        switch (what) {
            case "checker" -> io.zkchaos.checkers.bench.CheckerBench.main(rest);
            case "recorder" -> io.zkchaos.checkers.bench.RecorderBench.main(rest);
            case "read-model" -> io.zkchaos.checkers.bench.ReadModelBench.main(rest);
            case "proxy" -> io.zkchaos.nemesis.bench.ProxyBench.main(rest);
            case "cluster" -> io.zkchaos.harness.bench.ClusterBench.main(rest);
            case "lazyfs" -> io.zkchaos.harness.bench.LazyFsBench.main(rest);
            case "election" -> io.zkchaos.harness.bench.ElectionBench.main(withRuns(rest));
            case "herd" -> io.zkchaos.workloads.bench.HerdBench.main(rest);
            case "report" -> io.zkchaos.harness.bench.ReportBench.main(withOut(rest, out.resolve("report")));
            case "hunt" -> HuntCommand.run(withOut(rest, out.resolve("hunt")), spec.commandLine().getOut());
            case "suite" -> suite((args.isEmpty() ? List.of("harness/target/chaos-store") : args).stream()
                    .map(Path::of).toList());
            case "workloads" -> WorkloadBench.run(spec.commandLine().getOut(),
                    workloads != null ? workloads : Workloads.NAMES,
                    nemeses != null ? nemeses : Nemeses.names(), timeLimit,
                    concurrency, rate, 42, out);
            case "stalled-leader" -> StalledLeaderBench.run(spec.commandLine().getOut(),
                    workloads != null ? workloads : List.of("election", "election-curator", "fenced-writes",
                            "unfenced-writes"), runs, out);
            default -> {
                spec.commandLine().getErr().println("error: unknown benchmark '" + what
                        + "'; known: checker, recorder, read-model, proxy, cluster, lazyfs, election, herd, report, workloads, stalled-leader, suite");
                return Verdicts.Exit.ERROR;
            }
        }
        return 0;
    }
}
