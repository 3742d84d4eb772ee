package io.zkchaos.junit;

/**
 * A user's client under test, as one process of {@link ChaosContext#runClients} sees it: opened once per process
 * (its own ZooKeeper session), stepped until the run ends, closed when the process is retired or the run is over.
 */
public interface ChaosClient extends AutoCloseable {

    /**
     * Does one operation (or a few), recording each through {@code process} ({@link ChaosProcess#call}). Must not
     * block without bound: let every ZooKeeper call time out (the session timeout is a fine bound).
     */
    void step(ChaosProcess process) throws Exception;

    /** Closes the client's session; called once. */
    @Override
    void close() throws Exception;

    /**
     * Opens a client for a process; an exception means it could not connect, and it is tried again after 200 ms. A
     * process whose opens keep failing for longer than {@link ChaosTest#openTimeout} fails the test, with the last
     * exception as the failure's cause.
     */
    @FunctionalInterface
    interface Factory {
        ChaosClient open(ChaosProcess process) throws Exception;
    }
}
