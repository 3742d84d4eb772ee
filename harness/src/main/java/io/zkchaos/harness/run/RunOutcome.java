package io.zkchaos.harness.run;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.results.RunDirectory;

/**
 * How a run ended: the verdict of its checkers, where everything is, and how much happened.
 *
 * @param result     the composed verdict
 * @param directory  the run directory (history, config, results, node logs)
 * @param operations history entries recorded
 * @param millis     wall time of the whole run
 */
public record RunOutcome(CheckResult result, RunDirectory directory, long operations, long millis) {
}
