package io.zkchaos.workloads.sessions;

import io.zkchaos.workloads.Sessions;
import io.zkchaos.workloads.Target;
import io.zkchaos.workloads.ZnodeAcls;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;

/**
 * A process's session: the handle it opened, through which every call goes.
 *
 * <p>A handle that {@linkplain #silentlyReconnecting reconnects silently} is the deliberately broken client that
 * proves the checker: when a call finds its session expired (or loses its connection and the session then turns out
 * expired), it opens a new session behind its user's back, repeats the call there, and goes on with the new session
 * as if it were the old one. ZooKeeper's sessions exist so that this cannot pass unnoticed.
 */
final class Handle implements AutoCloseable {

    /** A call through the handle. */
    @FunctionalInterface
    interface Call<T> {
        T on(ZooKeeper zk) throws KeeperException, InterruptedException;
    }

    private final Target target;
    private final ReportingZooKeeper opened;
    private final boolean silent;
    private ReportingZooKeeper current;

    private Handle(Target target, ReportingZooKeeper opened, boolean silent) {
        this.target = target;
        this.opened = opened;
        this.current = opened;
        this.silent = silent;
    }

    /** Opens a session whose events go to {@code log}; throws if it does not connect within the request timeout. */
    static Handle open(Target target, SessionLog log, boolean silent) throws IOException, InterruptedException {
        return new Handle(target, (ReportingZooKeeper) Sessions.openClient(ReportingZooKeeper::new, target.connectString(),
                target, log), silent);
    }

    /** The handle this process opened (a silently reconnecting one may be using another by now). */
    ZooKeeper opened() {
        return opened;
    }

    /** The ACLs of the znodes this process's sessions create ({@code acls().forClient(zk)} with the one in use). */
    ZnodeAcls acls() {
        return target.acls();
    }

    long sessionId() {
        return opened.getSessionId();
    }

    byte[] password() {
        return opened.getSessionPasswd();
    }

    int timeoutMillis() {
        return opened.getSessionTimeout();
    }

    /** Whether calls may still succeed: the handle in use is neither closed nor expired. */
    synchronized boolean usable() {
        return current.getState().isAlive();
    }

    /** Whether calls now go to a session other than the one this process opened (only a silent one does that). */
    synchronized boolean replaced() {
        return current != opened;
    }

    /** Whether the handle in use is connected now. */
    synchronized boolean connected() {
        return current.getState() == ZooKeeper.States.CONNECTED;
    }

    <T> T call(Call<T> c) throws KeeperException, InterruptedException {
        ReportingZooKeeper zk;
        synchronized (this) {
            zk = current;
        }
        try {
            return c.on(zk);
        } catch (KeeperException e) {
            if (!silent || (e.code() != KeeperException.Code.SESSIONEXPIRED
                    && e.code() != KeeperException.Code.CONNECTIONLOSS)) {
                throw e;
            }
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(2L * zk.getSessionTimeout());
            while (zk.getState().isAlive() && zk.getState() != ZooKeeper.States.CONNECTED
                    && System.nanoTime() < deadline) {
                TimeUnit.MILLISECONDS.sleep(20);
            }
            if (!zk.getState().isAlive()) {
                zk = reopen();
            }
            return c.on(zk);
        }
    }

    private synchronized ReportingZooKeeper reopen() throws KeeperException, InterruptedException {
        try {
            current = (ReportingZooKeeper) Sessions.openClient(ReportingZooKeeper::new, target.connectString(), target,
                    Sessions.IGNORE);
            return current;
        } catch (IOException e) {
            throw new KeeperException.ConnectionLossException();
        }
    }

    /** Closes the session in use and says what the servers answered ({@link ReportingZooKeeper#closeSession}). */
    int closeSession() throws InterruptedException {
        ReportingZooKeeper zk;
        synchronized (this) {
            zk = current;
        }
        return zk.closeSession();
    }

    @Override
    public synchronized void close() {
        Sessions.closeQuietly(current);
        if (current != opened) {
            Sessions.closeQuietly(opened);
        }
    }
}
