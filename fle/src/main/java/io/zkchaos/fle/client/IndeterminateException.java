package io.zkchaos.fle.client;

/**
 * The outcome is unknown: the connection was lost or the answer did not come in time after the request was sent, or
 * the server lost its leader before it learned the outcome. A write may have happened or may happen later; retrying a
 * put may apply it twice. Record it as {@code info} and retire the process.
 */
public final class IndeterminateException extends FleException {

    public IndeterminateException(String message) {
        super(message, null);
    }

    public IndeterminateException(String message, Throwable cause) {
        super(message, cause);
    }
}
