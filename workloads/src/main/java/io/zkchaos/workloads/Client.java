package io.zkchaos.workloads;

/**
 * One process's connection to the system: a ZooKeeper session. Used by one thread at a time.
 *
 * <p>{@link #invoke} must return within the target's request timeout (plus a small margin) and must not throw:
 * errors become a {@link Result}, {@code info} unless the client knows the operation did not happen.
 */
public interface Client extends AutoCloseable {

    Result invoke(Invocation op);

    /** Closes the session; must not throw. */
    @Override
    void close();
}
