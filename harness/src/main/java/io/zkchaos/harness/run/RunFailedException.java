package io.zkchaos.harness.run;

/** The harness could not finish a run (not a verdict about the system): the message says what and where. */
public class RunFailedException extends RuntimeException {

    public RunFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
