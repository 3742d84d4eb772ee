package io.zkchaos.fle.client;

/**
 * What a client call can end with besides a result: either it {@linkplain RejectedException certainly did not
 * happen}, or it is {@linkplain IndeterminateException unknown whether it happened}. A history records the first as
 * {@code fail}, the second as {@code info}.
 */
public abstract sealed class FleException extends Exception permits IndeterminateException, RejectedException {

    protected FleException(String message, Throwable cause) {
        super(message, cause);
    }
}
