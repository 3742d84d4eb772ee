package io.zkchaos.harness.shrink;

import io.zkchaos.harness.run.RunOutcome;
import io.zkchaos.harness.run.Runner;
import io.zkchaos.harness.run.config.RunConfig;
import io.zkchaos.results.FindingKind;
import java.io.PrintWriter;
import java.time.Duration;

/** Runs a configuration and judges the run: for replays and shrink steps. */
@FunctionalInterface
public interface Trials {

    /** Runs {@code config}; a run the harness could not do is a {@link TrialRun#failed} one, not an exception. */
    TrialRun run(RunConfig config) throws InterruptedException;

    /** Real runs ({@link Runner}), each in its own run directory, their progress lines to {@code log}. */
    static Trials real(PrintWriter log) {
        return config -> {
            try {
                RunOutcome o = new Runner(log, Duration.ofSeconds(10)).run(config);
                return new TrialRun(o.directory().path(), o.result().validity(), FindingKind.of(o.result()),
                        FindingKind.exercisedEnough(o.result()), null);
            } catch (RuntimeException e) {
                log.println("error: " + e.getMessage());
                log.flush();
                return TrialRun.failed(null, e.getMessage());
            }
        };
    }
}
