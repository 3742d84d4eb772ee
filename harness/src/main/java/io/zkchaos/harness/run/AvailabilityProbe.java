package io.zkchaos.harness.run;

import io.zkchaos.checkers.history.HistoryRecorder;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.checkers.servers.AvailabilityChecker;
import io.zkchaos.workloads.Sessions;
import io.zkchaos.workloads.Target;
import io.zkchaos.workloads.fle.FleNodes;
import io.zkchaos.fle.client.FleClient;
import io.zkchaos.fle.client.FleException;
import io.zkchaos.fle.client.RejectedException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * The availability checker's probe ({@link AvailabilityChecker}'s history contract): during the clients' time, one
 * session pinned to each server (its own connect string alone, through its client link as any client's) writes its
 * own znode {@code /zkchaos-avail/<node>} about every {@link #EVERY}, each write recorded as an
 * {@value AvailabilityChecker#WRITE} keyed by the server, by a process of its own from
 * {@link AvailabilityChecker#PROCESS_BASE}. A write whose outcome is unknown (connection lost, timed out) ends
 * {@code info} and its process is retired: the next write is a new process with a new session. One that could not
 * connect, or that the server refused, ends {@code fail}.
 *
 * <p>On the project's own fle nodes the probe writes a key of its own ({@code avail-<node>}) through a client bound to
 * the server, in the same way: rejected is {@code fail}, no answer in time or a lost connection {@code info}.
 * Lifecycle: {@link #setup} once a quorum serves (ZooKeeper's znodes; nothing for the fle nodes), {@link #start}
 * with the clients, {@link #close} when they end (it waits for each write under way, at most the request timeout).
 */
public final class AvailabilityProbe implements AutoCloseable {

    /** The probes' znodes live under here. */
    public static final String ROOT = "/zkchaos-avail";
    /** Between two writes' starts through one server. */
    public static final Duration EVERY = Duration.ofMillis(250);

    private final List<Thread> threads = new ArrayList<>();
    private final Duration requestTimeout;
    private volatile boolean closed;

    private AvailabilityProbe(Duration requestTimeout) {
        this.requestTimeout = requestTimeout;
    }

    /** Creates {@link #ROOT} and each server's znode (idempotent); before the clients' time. */
    public static void setup(Target target) throws Exception {
        ZooKeeper zk = Sessions.open(target.connectString(), target, null);
        try {
            create(zk, ROOT);
            for (String node : target.servers().keySet()) {
                create(zk, ROOT + "/" + node);
            }
        } finally {
            zk.close();
        }
    }

    private static void create(ZooKeeper zk, String path) throws KeeperException, InterruptedException {
        try {
            zk.create(path, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        } catch (KeeperException.NodeExistsException e) {
            // made by an earlier try of the setup
        }
    }

    /** Starts one prober per ZooKeeper server of {@code target}, recording into {@code recorder}. */
    public static AvailabilityProbe start(Target target, HistoryRecorder recorder) {
        return start(target, recorder, node -> new ZooKeeperChannel(target.connectingTo(target.servers().get(node)),
                node));
    }

    /** Starts one prober per fle node of {@code target}, recording into {@code recorder}. */
    public static AvailabilityProbe startFle(Target target, HistoryRecorder recorder) {
        return start(target, recorder, node -> new FleChannel(
                FleNodes.address(target.servers().get(node)), target.requestTimeout(), node));
    }

    private static AvailabilityProbe start(Target target, HistoryRecorder recorder,
                                           java.util.function.Function<String, Channel> channels) {
        AvailabilityProbe probe = new AvailabilityProbe(target.requestTimeout());
        List<String> nodes = List.copyOf(target.servers().keySet());
        for (int i = 0; i < nodes.size(); i++) {
            String node = nodes.get(i);
            Prober p = new Prober(probe, channels.apply(node), recorder, node, i);
            Thread t = new Thread(p::run, "avail-probe-" + node);
            t.setDaemon(true);
            probe.threads.add(t);
        }
        probe.threads.forEach(Thread::start);
        return probe;
    }

    /**
     * Stops the probers: each ends the write it is in first, for up to twice the request timeout; one still in a
     * write then is interrupted (its write ends info).
     */
    @Override
    public void close() throws InterruptedException {
        closed = true;
        long deadline = System.nanoTime() + requestTimeout.multipliedBy(2).toNanos();
        for (Thread t : threads) {
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        }
        for (Thread t : threads) {
            t.interrupt();
            t.join(TimeUnit.SECONDS.toMillis(30));
        }
    }

    /** How one write through one server ended: ok, certainly not done ({@code fail}), or not known ({@code info}). */
    private record Written(OpType type, String error) {
        static final Written OK = new Written(OpType.OK, null);
    }

    /**
     * One server's way to write, bound to it alone: a session (or a client) opened when first needed and dropped
     * after a write whose outcome is unknown, so that the next write is another process with another session.
     */
    private interface Channel {
        /** Writes {@code value}; an interrupt under way is thrown after the write was given up as {@code info}. */
        Written write(long value) throws InterruptedException;

        /** Drops the session (or client), if any. */
        void close();
    }

    /** Through a ZooKeeper session to this server's client address alone: {@code setData} of its znode. */
    private static final class ZooKeeperChannel implements Channel {
        private final Target pinned;
        private final String path;
        private ZooKeeper zk;

        ZooKeeperChannel(Target pinned, String node) {
            this.pinned = pinned;
            this.path = ROOT + "/" + node;
        }

        @Override
        public Written write(long value) throws InterruptedException {
            if (zk == null) {
                try {
                    zk = Sessions.open(pinned.connectString(), pinned, null);
                } catch (InterruptedException e) {
                    throw e;
                } catch (Exception e) {
                    return new Written(OpType.FAIL, "could not connect: " + e.getMessage());
                }
            }
            try {
                zk.setData(path, Long.toString(value).getBytes(StandardCharsets.UTF_8), -1);
                return Written.OK;
            } catch (KeeperException.ConnectionLossException | KeeperException.SessionExpiredException
                     | KeeperException.OperationTimeoutException | KeeperException.SessionMovedException e) {
                return new Written(OpType.INFO, e.code().name());
            } catch (KeeperException e) {
                return new Written(OpType.FAIL, e.code().name());
            } catch (RuntimeException e) {
                return new Written(OpType.INFO, e.toString());
            }
        }

        @Override
        public void close() {
            if (zk != null) {
                try {
                    zk.close(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (RuntimeException e) {
                    // closing a session to a server that is gone: nothing to do
                }
                zk = null;
            }
        }
    }

    /** Through an fle client bound to this node: a put of its own key. */
    private static final class FleChannel implements Channel {
        private final java.net.InetSocketAddress address;
        private final Duration timeout;
        private final String key;
        private FleClient client;

        FleChannel(java.net.InetSocketAddress address, Duration timeout, String node) {
            this.address = address;
            this.timeout = timeout;
            this.key = "avail-" + node;
        }

        @Override
        public Written write(long value) {
            if (client == null) {
                client = new FleClient(address, timeout);
            }
            try {
                client.put(key, Long.toString(value));
                return Written.OK;
            } catch (RejectedException e) {
                return new Written(OpType.FAIL, e.getMessage());
            } catch (FleException e) {
                return new Written(OpType.INFO, e.getMessage()); // indeterminate: no answer, a lost connection
            }
        }

        @Override
        public void close() {
            if (client != null) {
                client.close();
                client = null;
            }
        }
    }

    /** One server's prober: writes through it alone. */
    private static final class Prober {
        private final AvailabilityProbe owner;
        private final Channel channel;
        private final HistoryRecorder recorder;
        private final String node;
        private final int index;
        private int renewal;
        private long seq;

        Prober(AvailabilityProbe owner, Channel channel, HistoryRecorder recorder, String node, int index) {
            this.owner = owner;
            this.channel = channel;
            this.recorder = recorder;
            this.node = node;
            this.index = index;
        }

        void run() {
            try {
                while (!owner.closed) {
                    long next = System.nanoTime() + EVERY.toNanos();
                    write();
                    long wait = next - System.nanoTime();
                    if (wait > 0 && !owner.closed) {
                        TimeUnit.NANOSECONDS.sleep(wait);
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                channel.close();
            }
        }

        /** One write, recorded; an interrupt while it is under way ends it info, then stops the prober. */
        private void write() throws InterruptedException {
            int process = AvailabilityChecker.process(index, renewal);
            long value = ++seq;
            Op invoke = recorder.invoke(process, AvailabilityChecker.WRITE, node, value);
            Written w;
            try {
                w = channel.write(value);
            } catch (InterruptedException e) {
                retire(invoke, "interrupted");
                throw e;
            }
            if (w.type() == OpType.INFO) {
                retire(invoke, w.error());
            } else {
                recorder.complete(invoke, w.type(), null, w.error());
            }
        }

        /** The outcome is unknown: info, and the next write is another process with another session. */
        private void retire(Op invoke, String error) {
            recorder.complete(invoke, OpType.INFO, null, error);
            renewal++;
            channel.close();
        }
    }
}
