package io.zkchaos.harness.cli;

import io.zkchaos.fle.Bug;
import io.zkchaos.harness.cluster.SystemUnderTest;
import io.zkchaos.nemesis.Nemeses;
import io.zkchaos.workloads.WorkloadDescriptor;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;

/**
 * {@code zkchaos scenarios}: the systems, the workloads each offers (with the checkers that judge them there), the
 * fle nodes' bug flags and the nemeses {@code run} takes, a line each.
 */
@Command(name = "scenarios", mixinStandardHelpOptions = true,
        description = "List the systems and their workloads, the fle bug flags and the nemeses that make up a "
                + "scenario (WORKLOAD-NEMESIS).")
public final class ScenariosCommand implements Callable<Integer> {

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        var out = spec.commandLine().getOut();
        for (SystemUnderTest s : SystemUnderTest.values()) {
            out.printf("Workloads of --system %s (%s):%n", s.id(), s.description());
            for (WorkloadDescriptor d : s.workloads()) {
                out.printf("  %-22s %s%n  %-22s   checked by %s%n", d.name(), d.description(), "",
                        String.join(", ", d.checkers()));
            }
        }
        out.println("Bug flags of the fle nodes (--bug NAME, with --system fle; docs/fle.md says what each does):");
        for (Bug b : Bug.values()) {
            out.printf("  %s%n", b.flag());
        }
        out.println("Nemeses (--nemesis):");
        Nemeses.descriptions().forEach((n, d) -> out.printf("  %-22s %s%n", n, d));
        out.println("A scenario is WORKLOAD-NEMESIS, e.g. ./zkchaos run --workload set --nemesis kill-leader");
        out.println("  or ./zkchaos run --system fle --bug commit-before-quorum --workload set --nemesis isolate-leader");
        return 0;
    }
}
