package io.zkchaos.harness.cli;

import io.zkchaos.nemesis.Nemeses;
import io.zkchaos.workloads.Workloads;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;

/** {@code zkchaos scenarios}: the workloads and nemeses {@code run} takes, a line each. */
@Command(name = "scenarios", mixinStandardHelpOptions = true,
        description = "List the workloads and nemeses that make up a scenario (WORKLOAD-NEMESIS).")
public final class ScenariosCommand implements Callable<Integer> {

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        var out = spec.commandLine().getOut();
        out.println("Workloads (--workload):");
        Workloads.descriptions().forEach((n, d) -> out.printf("  %-18s %s%n", n, d));
        out.println("Nemeses (--nemesis):");
        Nemeses.descriptions().forEach((n, d) -> out.printf("  %-18s %s%n", n, d));
        out.println("A scenario is WORKLOAD-NEMESIS, e.g. ./zkchaos run --workload set --nemesis kill-leader");
        return 0;
    }
}
