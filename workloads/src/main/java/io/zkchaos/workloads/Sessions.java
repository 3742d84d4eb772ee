package io.zkchaos.workloads;

import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;

/** Opens ZooKeeper sessions with bounded waits: one logical process = one session. */
public final class Sessions {

    private Sessions() {
    }

    /** Makes a ZooKeeper handle; tests substitute one that wraps calls (e.g. to inject ConnectionLoss). */
    @FunctionalInterface
    public interface Factory {
        ZooKeeper create(String connectString, int sessionTimeoutMs, Watcher watcher, ZKClientConfig config)
                throws IOException;
    }

    /** The real thing. */
    public static final Factory REAL = ZooKeeper::new;

    /**
     * Opens one of the harness's own sessions (setup, cleanup, final reads) to {@code connectString} and waits until
     * it is connected; it holds the auditor's identity when the target's ACLs are per-client
     * ({@link ZnodeAcls#authenticateHarness}).
     */
    public static ZooKeeper open(String connectString, Target target, Watcher watcher)
            throws IOException, InterruptedException {
        return open(REAL, connectString, target, watcher);
    }

    /** As {@link #open(String, Target, Watcher)}, the handle made by {@code factory}. */
    public static ZooKeeper open(Factory factory, String connectString, Target target, Watcher watcher)
            throws IOException, InterruptedException {
        ZooKeeper zk = connect(factory, connectString, target, watcher);
        target.acls().authenticateHarness(zk);
        return zk;
    }

    /**
     * Opens a workload client's session (one logical process) and waits until it is connected; it holds an identity
     * of its own when the target's ACLs are per-client ({@link ZnodeAcls#authenticateClient}), and creates its
     * znodes with {@code target.acls().forClient(zk)}.
     */
    public static ZooKeeper openClient(String connectString, Target target, Watcher watcher)
            throws IOException, InterruptedException {
        return openClient(REAL, connectString, target, watcher);
    }

    /** As {@link #openClient(String, Target, Watcher)}, the handle made by {@code factory}. */
    public static ZooKeeper openClient(Factory factory, String connectString, Target target, Watcher watcher)
            throws IOException, InterruptedException {
        ZooKeeper zk = connect(factory, connectString, target, watcher);
        target.acls().authenticateClient(zk);
        return zk;
    }

    /**
     * Opens a session with {@code factory} and waits at most the target's request timeout for it to connect.
     * {@code watcher} (may be null) receives every event of the session, including the first SyncConnected.
     *
     * @throws IOException naming the connect string if it did not connect in time (the handle is closed)
     */
    private static ZooKeeper connect(Factory factory, String connectString, Target target, Watcher watcher)
            throws IOException, InterruptedException {
        CountDownLatch connected = new CountDownLatch(1);
        Watcher w = event -> {
            if (event.getType() == Watcher.Event.EventType.None
                    && event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
            if (watcher != null) {
                watcher.process(event);
            }
        };
        ZKClientConfig config = new ZKClientConfig();
        // Bounds every synchronous call: without it a call could wait for as long as the client keeps reconnecting.
        config.setProperty(ZKClientConfig.ZOOKEEPER_REQUEST_TIMEOUT,
                Long.toString(target.requestTimeout().toMillis()));
        ZooKeeper zk = factory.create(connectString, (int) target.sessionTimeout().toMillis(), w, config);
        if (!connected.await(target.requestTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
            zk.close();
            throw new IOException("could not connect to " + connectString + " within " + target.requestTimeout());
        }
        return zk;
    }

    /** Closes quietly (bounded: close waits at most the client's own timeout); keeps the interrupt flag. */
    public static void closeQuietly(ZooKeeper zk) {
        if (zk == null) {
            return;
        }
        try {
            zk.close(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** What a caller does with a session opened for it ({@link #with}). */
    @FunctionalInterface
    public interface Work {
        void on(ZooKeeper zk) throws Exception;
    }

    /**
     * Opens a session to the whole ensemble, does {@code work} with it and closes it, whatever happened: a workload's
     * setup, for instance.
     */
    public static void with(Target target, Work work) throws Exception {
        ZooKeeper zk = open(target.connectString(), target, null);
        try {
            work.on(zk);
        } finally {
            closeQuietly(zk);
        }
    }

    /** Ignores events; for sessions whose state changes the caller learns from call errors. */
    public static final Watcher IGNORE = (WatchedEvent e) -> { };
}
