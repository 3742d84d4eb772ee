package io.zkchaos.harness.cli;

import io.zkchaos.harness.shrink.RecordedRun;
import io.zkchaos.harness.shrink.RunLog;
import io.zkchaos.harness.shrink.Shrink;
import io.zkchaos.harness.shrink.Shrinker;
import io.zkchaos.results.Verdicts;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code zkchaos shrink RUN_DIR}: the smallest run that still finds what a run found (drop faults, shorten them and
 * the main phase, fewer nodes, clients, keys), with real runs, within a budget.
 */
@Command(name = "shrink", mixinStandardHelpOptions = true,
        description = "Shrink a run that found something: first with no fault at all (a finding that comes back is a "
                + "plain bug, not a fault's), then smaller runs (fewer faults, shorter fault windows and main phase, "
                + "fewer nodes, clients and keys), keeping one when --keep-rate of its tries find the same kind of "
                + "thing; print the steps, then write the smallest schedule, its run and a report page with the "
                + "original and the smallest side by side.",
        footer = {"", "Everything goes to RUN_DIR/shrink/: schedule.json (./zkchaos run --schedule takes it), "
                + "shrink.json (the steps), runs/, confirm/ (replays of the smallest), index.html.",
                "Exit status: 0 when a smaller run reproduced the finding, 1 when none did, 2 on an error."})
public final class ShrinkCommand implements Callable<Integer> {

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Mixin
    FinishedRunArgs run;

    @Option(names = "--budget", converter = Durations.class, defaultValue = "30m",
            description = "the wall time it may take; then the smallest so far is the result (default: "
                    + "${DEFAULT-VALUE})")
    Duration budget;

    @Option(names = "--keep-rate", paramLabel = "N/K", defaultValue = "2/3", description = "keep a candidate when "
            + "at least N of up to K runs find the same kind of thing: one lucky run on a loaded machine would shrink "
            + "too far (default: ${DEFAULT-VALUE})")
    String keepRate;

    @Option(names = "--confirm", defaultValue = "3", description = "replays of the smallest at the end, for its "
            + "reproduction rate; 0 for none (default: ${DEFAULT-VALUE})")
    int confirm;

    @Option(names = "--finding", split = ",", paramLabel = "CHECKER:KIND", description = "the finding to keep "
            + "(repeatable; any one counts), e.g. no-lost-commit:lost (default: every finding of the run)")
    List<String> findings = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        RecordedRun original;
        Set<String> keep;
        Shrinker.KeepRate rate;
        try {
            try {
                rate = Shrinker.KeepRate.parse(keepRate);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--" + e.getMessage(), e);
            }
            if (confirm < 0) {
                throw new IllegalArgumentException("--confirm must be 0 or more, got " + confirm);
            }
            for (String f : findings) {
                if (!f.matches("[a-z0-9-]+:[a-z0-9-]+")) {
                    throw new IllegalArgumentException("--finding must be CHECKER:KIND (e.g. no-lost-commit:lost), "
                            + "got '" + f + "'");
                }
            }
            original = run.read();
            keep = new LinkedHashSet<>(findings.isEmpty() ? original.kinds() : findings);
            if (keep.isEmpty()) {
                throw new IllegalArgumentException("nothing to shrink: " + original.directory().path() + " found "
                        + "nothing (" + original.outcome() + "); shrink takes a run whose verdict is INVALID");
            }
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return Verdicts.Exit.ERROR;
        }
        Path dir = run.dir(original, "shrink");
        Shrink.Outcome o;
        try (PrintWriter log = RunLog.open(dir)) {
            o = Shrink.run(original, keep, rate, budget, confirm, dir, stdout, log);
        }
        return o.run() != null ? Verdicts.Exit.VALID : Verdicts.Exit.INVALID;
    }
}
