package io.zkchaos.workloads.register;

import io.zkchaos.checkers.history.HistoryRecorder;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.workloads.RunContext;
import io.zkchaos.workloads.Target;
import io.zkchaos.workloads.Workload;
import io.zkchaos.workloads.register.RegisterWorkload.ReadMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.zookeeper.client.FourLetterWordMain;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code register} with pinned readers: half the processes (rounded up) only read, each through a session to one
 * server alone — the pinned one — while the other processes only write and cas, through sessions to the other
 * servers. Built to show ZooKeeper's documented stale reads: cut the pinned server off from its peers while the
 * writers go on, and its readers see the old values until it notices (see {@code isolate-follower}).
 *
 * <p>The history is the {@code register} workload's: readers record {@code read} (or {@code sync-read} with
 * {@link ReadMode#SYNC}), writers {@code write} and {@code cas} with values unique across the run. Readers are
 * processes {@code 0 .. R-1} (retired ones take {@code + R}); writers are numbered from {@link #WRITER_BASE} the same
 * way, so the two groups never share a number.
 *
 * <p>The pinned server is a node name ({@code n1}) or {@code follower}: the lowest-named server that answers
 * {@code srvr} and does not lead when the run starts — the one {@code isolate-follower} cuts off while the
 * leadership stays where it is.
 */
public final class PinnedReadsRegister implements Workload {

    private static final Logger LOG = LoggerFactory.getLogger(PinnedReadsRegister.class);

    /** The pinned server named by its role: the lowest-named follower. */
    public static final String FOLLOWER = "follower";
    /** Writer processes are numbered from here. */
    public static final int WRITER_BASE = 100_000;

    private final String pin;
    private final RegisterWorkload readers;
    private final RegisterWorkload writers;
    private final double rate;
    private final AtomicReference<String> pinned = new AtomicReference<>();

    /**
     * @param root     parent znode of the keys
     * @param keys     how many keys
     * @param readMode plain or sync reads
     * @param pin      the readers' server: a node name, or {@link #FOLLOWER}
     * @param rate     operations per second over all processes (0: as fast as they go), shared in proportion
     */
    public PinnedReadsRegister(String root, int keys, ReadMode readMode, String pin, double rate) {
        this.pin = Objects.requireNonNull(pin, "pin");
        this.readers = new RegisterWorkload(root, keys, readMode, 1, 0, 0);
        this.writers = new RegisterWorkload(root, keys, readMode, 0, 1, 1);
        this.rate = rate;
    }

    @Override
    public String name() {
        return "register";
    }

    /** The server the readers are pinned to (known after {@link #setup}). */
    public String pinned() {
        return pinned.get();
    }

    @Override
    public void setup(Target target) throws Exception {
        String node = pin.equals(FOLLOWER) ? firstFollower(target) : pin;
        if (!target.servers().containsKey(node)) {
            throw new IllegalArgumentException("pin-reads: no server '" + node + "'; servers are "
                    + target.servers().keySet());
        }
        if (target.servers().size() < 2) {
            throw new IllegalArgumentException("pin-reads needs at least 2 servers: the pinned one for readers and "
                    + "others for writers; there is " + target.servers().size());
        }
        pinned.set(node);
        LOG.info("register: readers pinned to {}, writers on {}", node, others(target, node));
        writers.setup(target);
    }

    @Override
    public void run(RunContext ctx) throws InterruptedException {
        String node = Objects.requireNonNull(pinned.get(), "setup first");
        int c = ctx.concurrency();
        if (c < 2) {
            throw new IllegalArgumentException("pin-reads needs a concurrency of at least 2 (readers and writers), "
                    + "got " + c);
        }
        int r = (c + 1) / 2;
        int w = c - r;
        Target t = ctx.target();
        Target readTarget = t.connectingTo(t.servers().get(node));
        Target writeTarget = t.connectingTo(others(t, node));
        readers.withRate(rate * r / c);
        writers.withRate(rate * w / c);
        RunContext readCtx = new RunContext(readTarget, ctx.recorder(), ctx.seed(), r, ctx.duration(), ctx.stop());
        RunContext writeCtx = new RunContext(writeTarget, new Offset(ctx.recorder(), WRITER_BASE), ctx.seed() + 1,
                w, ctx.duration(), ctx.stop());
        List<Throwable> errors = new ArrayList<>();
        Thread writing = new Thread(() -> {
            try {
                writers.run(writeCtx);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                synchronized (errors) {
                    errors.add(e);
                }
            }
        }, "register-writers");
        writing.start();
        try {
            readers.run(readCtx);
        } finally {
            writing.join();
        }
        synchronized (errors) {
            if (!errors.isEmpty()) {
                throw new IllegalStateException("the writers failed: " + errors.get(0), errors.get(0));
            }
        }
    }

    @Override
    public void finalPhase(Target target, HistoryRecorder recorder) {
        // Nothing of its own: the final-state reads compare the servers.
    }

    @Override
    public void teardown(Target target) {
        // Keys are left for inspection; setup clears them at the next run.
    }

    private static String others(Target t, String node) {
        List<String> hosts = new ArrayList<>();
        t.servers().forEach((n, hostPort) -> {
            if (!n.equals(node)) {
                hosts.add(hostPort);
            }
        });
        return String.join(",", hosts);
    }

    /**
     * The lowest-named server that answers {@code srvr} (asked through its client port) and does not lead: a
     * follower, or one still joining — the node {@code isolate-follower} picks among the running ones.
     */
    static String firstFollower(Target target) {
        List<String> seen = new ArrayList<>();
        for (Map.Entry<String, String> s : target.servers().entrySet()) {
            String mode = mode(s.getValue(), (int) target.requestTimeout().toMillis());
            seen.add(s.getKey() + "=" + mode);
            if (!mode.equals("leader") && !mode.equals("standalone") && !mode.startsWith("unreachable")) {
                return s.getKey();
            }
        }
        throw new IllegalStateException("pin-reads follower: every server leads or is unreachable now ("
                + String.join(", ", seen) + ")");
    }

    /** The server's mode by {@code srvr}: follower, leader, ..., {@code not serving}, or {@code unreachable (why)}. */
    private static String mode(String hostPort, int timeoutMs) {
        int colon = hostPort.lastIndexOf(':');
        try {
            String answer = FourLetterWordMain.send4LetterWord(hostPort.substring(0, colon),
                    Integer.parseInt(hostPort.substring(colon + 1)), "srvr", false, timeoutMs);
            for (String line : answer.split("\n")) {
                if (line.startsWith("Mode: ")) {
                    return line.substring("Mode: ".length()).trim().toLowerCase(Locale.ROOT);
                }
            }
            return "not serving";
        } catch (Exception e) {
            return "unreachable (" + e.getMessage() + ")";
        }
    }

    /** Records through {@code delegate} with process numbers shifted by {@code offset}. */
    private record Offset(HistoryRecorder delegate, int offset) implements HistoryRecorder {
        @Override
        public Op invoke(int process, String f, String key, Object value) {
            return delegate.invoke(process + offset, f, key, value);
        }

        @Override
        public Op complete(Op invoke, OpType type, Object value, String error) {
            return delegate.complete(invoke, type, value, error);
        }

        @Override
        public Op nemesis(OpType type, String f, Object value) {
            return delegate.nemesis(type, f, value);
        }

        @Override
        public void close() {
            // the run's recorder is closed by its owner
        }
    }
}
