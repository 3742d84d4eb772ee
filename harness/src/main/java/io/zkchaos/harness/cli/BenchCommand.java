package io.zkchaos.harness.cli;

import io.zkchaos.harness.run.WorkloadBench;
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
        description = "Print benchmark figures: checker, proxy, cluster, election, herd, report, workloads.")
public final class BenchCommand implements Callable<Integer> {

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "WHAT",
            description = "checker | proxy | cluster | election | herd | report | workloads")
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

    @Option(names = "--out", defaultValue = "store/bench", description = "workloads bench: run directories; report "
            + "bench: its pages go to OUT/report")
    Path out;

    /** The report bench takes {@code --out} too (picocli gives it to this command): its pages go to OUT/report. */
    private static String[] withOut(String[] rest, Path dir) {
        String[] all = java.util.Arrays.copyOf(rest, rest.length + 2);
        all[rest.length] = "--out";
        all[rest.length + 1] = dir.toString();
        return all;
    }

    @Override
    public Integer call() throws Exception {
        String[] rest = args.toArray(String[]::new);
        switch (what) {
            case "checker" -> io.zkchaos.checkers.bench.CheckerBench.main(rest);
            case "proxy" -> io.zkchaos.nemesis.bench.ProxyBench.main(rest);
            case "cluster" -> io.zkchaos.harness.cluster.bench.ClusterBench.main(rest);
            case "election" -> io.zkchaos.harness.cluster.bench.ElectionBench.main(rest);
            case "herd" -> io.zkchaos.workloads.bench.HerdBench.main(rest);
            case "report" -> io.zkchaos.harness.report.ReportBench.main(withOut(rest, out.resolve("report")));
            case "workloads" -> WorkloadBench.run(spec.commandLine().getOut(),
                    workloads != null ? workloads : Workloads.NAMES,
                    nemeses != null ? nemeses : Nemeses.names(), timeLimit,
                    concurrency, rate, 42, out);
            default -> {
                spec.commandLine().getErr().println("error: unknown benchmark '" + what
                        + "'; known: checker, proxy, cluster, election, herd, report, workloads");
                return Verdicts.Exit.ERROR;
            }
        }
        return 0;
    }
}
