package io.zkchaos.fle.client;

/**
 * Certainly not done: the server does not serve (no leader, not synced), a compare-and-set found another value, or
 * the client could not connect at all (nothing was sent). Record it as {@code fail}.
 */
public final class RejectedException extends FleException {

    public RejectedException(String message) {
        super(message, null);
    }

    public RejectedException(String message, Throwable cause) {
        super(message, cause);
    }
}
