package io.zkchaos.junit.internal;

import java.util.Optional;

/**
 * How the operations a chaos test's body recorded ended, and whether that is enough to have tested anything: a
 * body that recorded no operation, or none that was acknowledged, gave the checkers nothing to judge (an empty
 * history is trivially linearizable). This check is the extension's own; it does not wait for the harness's.
 *
 * @param invoked       operations invoked
 * @param ok            of those, acknowledged
 * @param failed        certainly not done ({@code fail})
 * @param indeterminate unknown ({@code info}), including operations abandoned at the end of the run
 * @param lastError     the error of the last {@code fail} or {@code info}, or null
 */
record OperationTally(int invoked, int ok, int failed, int indeterminate, String lastError) {

    static final OperationTally NONE = new OperationTally(0, 0, 0, 0, null);

    /**
     * Why the body tested nothing, or empty when some operation was acknowledged.
     *
     * @param body the test method, for the message ({@code CounterChaosIT.counterStaysLinearizable})
     */
    Optional<String> shortfall(String body) {
        if (invoked == 0) {
            return Optional.of(body + " recorded no operation, so nothing was tested: run clients with "
                    + "chaos.runClients(...), or record with chaos.recorder(), while chaos.running()");
        }
        if (ok == 0) {
            return Optional.of(body + " recorded " + invoked + " operation(s) and none was acknowledged (ok): "
                    + failed + " fail, " + indeterminate + " info, " + (invoked - failed - indeterminate)
                    + " never completed" + (lastError == null ? "" : "; the last error: " + lastError)
                    + ". Nothing was tested: do the clients reach the ensemble (chaos.connectString())?");
        }
        return Optional.empty();
    }
}
