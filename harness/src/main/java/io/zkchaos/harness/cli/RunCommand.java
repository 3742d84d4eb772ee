package io.zkchaos.harness.cli;

import io.zkchaos.checkers.Validity;
import io.zkchaos.harness.run.RunConfig;
import io.zkchaos.harness.run.RunOutcome;
import io.zkchaos.harness.run.Runner;
import io.zkchaos.results.Verdicts;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code zkchaos run}: one scenario against a real local ensemble. Prints progress while it runs, then the verdict
 * and the run directory; exits as {@code check} does.
 */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Run a workload against a real ZooKeeper ensemble under a nemesis, then check the history.",
        footer = {"", "Exit status: 0 valid, 1 invalid, 3 unknown, 2 error (the run could not be done).",
                "Workloads and nemeses: ./zkchaos scenarios"})
public final class RunCommand implements Callable<Integer> {

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = "--workload", required = true, description = "register, set, election, election-curator, "
            + "election-naive, fenced-writes, fenced-writes-curator")
    String workload;

    @Option(names = "--nemesis", defaultValue = "none", description = "the faults (default: ${DEFAULT-VALUE})")
    String nemesis;

    @Option(names = "--nodes", defaultValue = "3", description = "ensemble size: 3 or 5 (default: ${DEFAULT-VALUE})")
    int nodes;

    @Option(names = "--time-limit", defaultValue = "60s", converter = Durations.class,
            description = "length of the main phase (default: ${DEFAULT-VALUE})")
    Duration timeLimit;

    @Option(names = "--concurrency", defaultValue = "5", description = "client processes (default: ${DEFAULT-VALUE})")
    int concurrency;

    @Option(names = "--seed", description = "seed of every random choice (default: the current time, printed)")
    Long seed;

    @Option(names = "--out", defaultValue = "store", description = "parent of the run directories "
            + "(default: ${DEFAULT-VALUE})")
    Path out;

    @Option(names = "--fault-for", defaultValue = "10s", converter = Durations.class,
            description = "how long each fault is held (default: ${DEFAULT-VALUE})")
    Duration faultFor;

    @Option(names = "--heal-for", defaultValue = "10s", converter = Durations.class,
            description = "healed time between faults (default: ${DEFAULT-VALUE})")
    Duration healFor;

    @Option(names = "--recover", defaultValue = "10s", converter = Durations.class,
            description = "after the final heal, clients keep working this long before the final reads "
                    + "(default: ${DEFAULT-VALUE})")
    Duration recover;

    @Option(names = "--reads", defaultValue = "plain", description = "register reads: plain or sync "
            + "(default: ${DEFAULT-VALUE})")
    String reads;

    @Option(names = "--keys", defaultValue = "3", description = "registers (default: ${DEFAULT-VALUE})")
    int keys;

    @Option(names = "--failover-bound", defaultValue = "10s", converter = Durations.class,
            description = "election workloads: a leader must exist again this long after every heal that lasts "
                    + "that long (default: ${DEFAULT-VALUE})")
    Duration failoverBound;

    @Option(names = "--rate", defaultValue = "100", description = "register and set: operations per second over "
            + "all clients, 0 for as fast as they go (default: ${DEFAULT-VALUE})")
    double rate;

    @Option(names = "--strict", description = "count ZooKeeper's documented stale plain reads as violations")
    boolean strict;

    @Option(names = "--zookeeper", defaultValue = "3.9.5", description = "ZooKeeper version under test, resolved "
            + "from Maven Central (default: ${DEFAULT-VALUE})")
    String zookeeper;

    @Option(names = "--session-timeout", defaultValue = "4s", converter = Durations.class,
            description = "client session timeout (default: ${DEFAULT-VALUE})")
    Duration sessionTimeout;

    @Override
    public Integer call() throws Exception {
        var stdout = spec.commandLine().getOut();
        var err = spec.commandLine().getErr();
        if (!reads.equals("plain") && !reads.equals("sync")) {
            err.println("error: --reads must be plain or sync, got '" + reads + "'");
            return Verdicts.Exit.ERROR;
        }
        RunConfig config;
        try {
            config = RunConfig.builder().workload(workload).nemesis(nemesis).nodes(nodes).timeLimit(timeLimit)
                    .concurrency(concurrency).seed(seed != null ? seed : System.currentTimeMillis()).out(this.out)
                    .faultFor(faultFor).healFor(healFor).recover(recover).syncReads(reads.equals("sync"))
                    .keys(keys).rate(rate).strict(strict).zookeeper(zookeeper).sessionTimeout(sessionTimeout)
                    .failoverBound(failoverBound).build();
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return Verdicts.Exit.ERROR;
        }
        RunOutcome outcome;
        try {
            outcome = new Runner(stdout, Duration.ofSeconds(5)).run(config);
        } catch (RuntimeException e) {
            err.println("error: " + e.getMessage());
            return Verdicts.Exit.ERROR;
        }
        Validity v = outcome.result().validity();
        stdout.println(Verdicts.line(config.scenario(), v, String.format(java.util.Locale.ROOT,
                "%d history entries, %.1f s", outcome.operations(), outcome.millis() / 1000.0), null));
        stdout.println("  " + outcome.result().summary());
        stdout.println("  run directory: " + outcome.directory().path());
        if (java.nio.file.Files.isRegularFile(outcome.directory().reportFile())) {
            stdout.println("  report: " + outcome.directory().reportFile());
        }
        return Verdicts.exitStatus(v);
    }
}
