package io.zkchaos.junit.internal;

import org.opentest4j.AssertionFailedError;

/**
 * A chaos test that tested nothing, or could not: its clients could not be opened, or its body recorded no
 * acknowledged operation. An {@link Error}, so that a body's {@code catch (Exception e)} cannot swallow it; the
 * extension adds the run's explanation (the report's path) before the test fails with it.
 */
final class NothingTested extends AssertionFailedError {

    private static final long serialVersionUID = 1L;

    NothingTested(String message, Throwable cause) {
        super(message, cause);
    }

    /** The same failure, its message followed by the run's explanation (verdict, what happened, report). */
    NothingTested withExplanation(String explanation) {
        NothingTested explained = new NothingTested(getMessage() + "\n" + explanation, getCause());
        explained.setStackTrace(getStackTrace());
        return explained;
    }
}
