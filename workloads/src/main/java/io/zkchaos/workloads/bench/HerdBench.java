package io.zkchaos.workloads.bench;

import io.zkchaos.checkers.bench.BenchOptions;
import io.zkchaos.workloads.Sessions;
import io.zkchaos.workloads.Target;
import io.zkchaos.workloads.Znodes;
import io.zkchaos.workloads.election.HerdCounters;
import io.zkchaos.workloads.election.LeaderElection;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.server.embedded.ExitHandler;
import org.apache.zookeeper.server.embedded.ZooKeeperServerEmbedded;

/**
 * Measures the herd effect (SPEC §5.1): N candidates wait; the leader dies (its session is closed, so its ephemeral
 * node goes); we count the watch notifications delivered to candidates and the getChildren calls they make until a
 * new leader is in place and the candidates are quiet again. The herd-free recipe should cost O(1) per failure, the
 * naive watch-the-smallest recipe O(N).
 *
 * <pre>
 * java -cp ... io.zkchaos.workloads.bench.HerdBench [--connect host:port,...] [--candidates 10,50] [--failures 5]
 * </pre>
 * Without {@code --connect} it starts a standalone ZooKeeper server in-process on a free loopback port (and removes
 * it afterwards).
 */
public final class HerdBench {

    /**
     * One measurement.
     *
     * @param recipe                  {@code herd-free} or {@code naive}
     * @param candidates              how many candidates waited
     * @param failures                how many leaders were killed
     * @param notificationsPerFailure mean watch notifications per failure
     * @param getChildrenPerFailure   mean getChildren calls per failure
     * @param maxNotifications        most notifications seen for one failure
     */
    public record Row(String recipe, int candidates, int failures, double notificationsPerFailure,
                      double getChildrenPerFailure, long maxNotifications) {
    }

    private HerdBench() {
    }

    /** A candidate under measurement: its session and its recipe. */
    private record Candidate(ZooKeeper zk, LeaderElection election) {
        void kill() {
            Sessions.closeQuietly(zk); // the leader dies: its session ends, its ephemeral node is deleted
            election.close();
        }
    }

    /**
     * Runs {@code candidates} candidates of {@code watching} under {@code electionPath} on {@code target}, kills the
     * leader {@code failures} times (replacing it with a fresh candidate each time, so N stays the same), and
     * returns the cost per failure.
     */
    public static Row measure(Target target, String electionPath, LeaderElection.Watching watching, int candidates,
                              int failures) throws Exception {
        if (candidates < 2 || failures < 1) {
            throw new IllegalArgumentException("need at least 2 candidates and 1 failure, got " + candidates
                    + " and " + failures);
        }
        ZooKeeper admin = Sessions.open(target.connectString(), target, null);
        HerdCounters counters = new HerdCounters();
        List<Candidate> alive = new ArrayList<>();
        long notifications = 0;
        long listings = 0;
        long maxNotifications = 0;
        int serial = 0;
        try {
            Znodes.deleteRecursive(admin, electionPath);
            Znodes.ensurePath(admin, electionPath);
            for (int i = 0; i < candidates; i++) {
                alive.add(join(target, electionPath, watching, counters, "c" + serial++));
            }
            awaitQuiet(counters, () -> leaderOf(alive) != null, "a first leader among " + candidates);
            for (int f = 0; f < failures; f++) {
                Candidate leader = leaderOf(alive);
                counters.reset();
                leader.kill();
                alive.remove(leader);
                awaitQuiet(counters, () -> leaderOf(alive) != null, "a new leader after failure " + (f + 1));
                notifications += counters.notifications();
                listings += counters.getChildrenCalls();
                maxNotifications = Math.max(maxNotifications, counters.notifications());
                alive.add(join(target, electionPath, watching, counters, "c" + serial++));
                awaitQuiet(counters, () -> true, "the new candidate settles");
            }
        } finally {
            killAll(alive);
            try {
                Znodes.deleteRecursive(admin, electionPath);
            } finally {
                Sessions.closeQuietly(admin);
            }
        }
        return new Row(watching == LeaderElection.Watching.PREDECESSOR ? "herd-free" : "naive", candidates, failures,
                (double) notifications / failures, (double) listings / failures, maxNotifications);
    }

    /**
     * Ends the candidates once the measurement is over, together: one after another, each close waited for its
     * session's end to be committed (about 0.1 s each, 5 s for 50), while the servers commit concurrent ones together.
     */
    private static void killAll(List<Candidate> candidates) throws InterruptedException {
        if (candidates.isEmpty()) {
            return;
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(candidates.size(), 16), r -> {
            Thread t = new Thread(r, "herd-bench-close");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Callable<Void>> kills = new ArrayList<>();
            for (Candidate c : candidates) {
                kills.add(() -> {
                    c.kill();
                    return null;
                });
            }
            pool.invokeAll(kills); // returns once every kill has ended (each bounded: close(2 s) and the recipe's own)
        } finally {
            pool.shutdown();
        }
    }

    private static Candidate join(Target target, String path, LeaderElection.Watching watching,
                                  HerdCounters counters, String id) throws Exception {
        AtomicReference<LeaderElection> ref = new AtomicReference<>();
        ZooKeeper zk = Sessions.open(target.connectString(), target, e -> {
            LeaderElection le = ref.get();
            if (le != null) {
                le.sessionEvent(e);
            }
        });
        LeaderElection e = new LeaderElection(zk, path, id, watching, new LeaderElection.Listener() {
        }, counters, LeaderElection.Hooks.NONE, target.requestTimeout());
        ref.set(e);
        e.start();
        return new Candidate(zk, e);
    }

    private static Candidate leaderOf(List<Candidate> alive) {
        return alive.stream().filter(c -> c.election().hasLeadership()).findFirst().orElse(null);
    }

    /** Waits (at most 20 s) for {@code condition}, then until the counters stop moving for 300 ms. */
    private static void awaitQuiet(HerdCounters counters, BooleanSupplier condition, String what)
            throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        long lastChange = System.nanoTime();
        long last = -1;
        while (true) {
            long now = System.nanoTime();
            long seen = counters.notifications() * 1_000_003L + counters.getChildrenCalls();
            if (seen != last) {
                last = seen;
                lastChange = now;
            }
            if (condition.getAsBoolean() && now - lastChange >= Duration.ofMillis(300).toNanos()) {
                return;
            }
            if (now > deadline) {
                throw new IllegalStateException("not within 20 s: " + what);
            }
            Thread.sleep(20);
        }
    }

    /** The table as printed by {@link #main}. */
    public static String format(List<Row> rows) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("%-10s %10s %9s %22s %22s %18s%n", "recipe", "candidates", "failures",
                "notifications/failure", "getChildren/failure", "max notifications"));
        for (Row r : rows) {
            sb.append(String.format("%-10s %10d %9d %22.1f %22.1f %18d%n", r.recipe(), r.candidates(), r.failures(),
                    r.notificationsPerFailure(), r.getChildrenPerFailure(), r.maxNotifications()));
        }
        return sb.toString();
    }

    public static void main(String[] args) throws Exception {
        BenchOptions o = BenchOptions.parse(args, "--connect", "--candidates", "--failures");
        String connect = o.text("--connect", null);
        List<Integer> sizes = o.get("--candidates", v -> Stream.of(v.split(",")).map(String::trim)
                .map(Integer::parseInt).toList(), List.of(10, 50));
        int failures = o.intValue("--failures", 5);
        ZooKeeperServerEmbedded server = null;
        Path dir = null;
        try {
            if (connect == null) {
                dir = Files.createTempDirectory("herd-bench-zk");
                server = startStandalone(dir);
                connect = server.getConnectionString();
                System.out.println("in-process ZooKeeper at " + connect);
            }
            Target target = new Target(connect, Map.of("n1", connect), Duration.ofSeconds(10),
                    Duration.ofSeconds(5));
            List<Row> rows = new ArrayList<>();
            for (int n : sizes) {
                for (LeaderElection.Watching w : LeaderElection.Watching.values()) {
                    rows.add(measure(target, "/zkchaos-herd-bench", w, n, failures));
                }
            }
            System.out.print(format(rows));
        } finally {
            if (server != null) {
                server.close();
            }
            if (dir != null) {
                try (Stream<Path> files = Files.walk(dir)) {
                    files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
        }
    }

    private static ZooKeeperServerEmbedded startStandalone(Path dir) throws Exception {
        Properties p = new Properties();
        p.setProperty("clientPort", Integer.toString(freePort()));
        p.setProperty("clientPortAddress", "127.0.0.1");
        p.setProperty("dataDir", dir.resolve("data").toString());
        p.setProperty("tickTime", "500");
        p.setProperty("maxClientCnxns", "0");
        p.setProperty("admin.enableServer", "false");
        ZooKeeperServerEmbedded server = ZooKeeperServerEmbedded.builder().baseDir(dir).configuration(p)
                .exitHandler(ExitHandler.LOG_ONLY).build();
        server.start(10_000);
        return server;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
