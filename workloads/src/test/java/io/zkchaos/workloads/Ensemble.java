package io.zkchaos.workloads;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.apache.zookeeper.ZooKeeper;

/**
 * A real ZooKeeper ensemble in this JVM (Curator's TestingCluster: real QuorumPeers on loopback ports), with a short
 * tick so sessions can be short. Closing it stops every server and deletes their directory.
 *
 * <p>Every server's data lives under one directory of this ensemble: Curator starts each server through ZooKeeper's
 * embedded server, which writes a {@code zookeeper.configuration*.properties} file beside the data directory and never
 * deletes it. With Curator's default data directories that is the system's temp directory, which collected one file
 * per server started (about a thousand a day here).
 */
public final class Ensemble implements AutoCloseable {

    /** Tick 200 ms: the minimum session timeout is 2 ticks, so tests can use sessions of a second or two. */
    private static final int TICK_MS = 200;

    private final Path directory;
    private final TestingCluster cluster;
    private final List<InstanceSpec> specs = new ArrayList<>();

    /**
     * Server settings for a loaded machine. The servers accept sessions of up to a minute: ZooKeeper's own cap is
     * 20 ticks (4 s here), which would quietly cut a test's "long" session down to 4 s; on a loaded machine such a
     * session can expire during a pause, and a session that must survive a server's restart may not. Followers may
     * lag the leader 10 s (syncLimit 50 ticks) and take 20 s to sync (initLimit 100 ticks): with Curator's 5 and 10
     * ticks (1 s and 2 s) a follower starved of CPU for a second dropped out, the quorum re-formed and every session
     * saw ConnectionLoss (seen at load average 40: a setup's create, a resigning leader's delete). A killed server
     * closes its sockets, so its peers still learn of it at once.
     */
    private static final Map<String, Object> DEFAULTS = Map.of("maxSessionTimeout", "60000", "syncLimit", "50",
            "initLimit", "100");

    public Ensemble(int size) throws Exception {
        this(size, Map.of());
    }

    /** With extra server properties, e.g. {@code maxSessionTimeout} (by default 60 s). */
    public Ensemble(int size, Map<String, Object> serverProperties) throws Exception {
        Map<String, Object> properties = new LinkedHashMap<>(DEFAULTS);
        properties.putAll(serverProperties);
        // Curator picks each port on its own and can hand two servers the same one (seen in CI): pick them all
        // here, distinct.
        java.util.Set<Integer> ports = new java.util.LinkedHashSet<>();
        while (ports.size() < 3 * size) {
            ports.add(InstanceSpec.getRandomPort());
        }
        java.util.Iterator<Integer> next = ports.iterator();
        directory = Files.createTempDirectory("zkchaos-ensemble-");
        for (int id = 1; id <= size; id++) {
            Path data = Files.createDirectory(directory.resolve("n" + id));
            specs.add(new InstanceSpec(data.toFile(), next.next(), next.next(), next.next(), true, id, TICK_MS, 200,
                    properties));
        }
        cluster = new TestingCluster(specs);
        try {
            cluster.start();
        } catch (Exception | Error e) {
            close();
            throw e;
        }
    }

    /** The whole ensemble, sessions of {@code session}, calls bounded by {@code request}. */
    public Target target(Duration session, Duration request) {
        Map<String, String> servers = new LinkedHashMap<>();
        for (InstanceSpec s : specs) {
            servers.put("n" + s.getServerId(), s.getConnectString());
        }
        return new Target(cluster.getConnectString(), servers, session, request);
    }

    /**
     * Sessions of 10 s, calls bounded by 10 s: for tests without faults, where a slow answer on a loaded machine must
     * not become an indeterminate (info) operation or an expired session.
     */
    public Target target() {
        return target(Duration.ofSeconds(10), Duration.ofSeconds(10));
    }

    /** A target whose clients all connect to server {@code n} (1-based) only. */
    public Target onlyServer(int n, Duration session, Duration request) {
        Target all = target(session, request);
        return new Target(spec(n).getConnectString(), all.servers(), session, request);
    }

    public InstanceSpec spec(int n) {
        return specs.get(n - 1);
    }

    public void kill(int n) throws Exception {
        if (!cluster.killServer(spec(n))) {
            throw new IllegalStateException("server " + n + " was not running");
        }
    }

    public void restart(int n) throws Exception {
        if (!cluster.restartServer(spec(n))) {
            throw new IllegalStateException("server " + n + " could not be restarted");
        }
    }

    /** Whether server {@code n} alone answers a sync (it has a leader and serves clients). */
    public boolean serves(int n, Target target) {
        ZooKeeper zk = null;
        try {
            zk = Sessions.open(spec(n).getConnectString(), target, null);
            zk.sync("/");
            return true;
        } catch (Exception e) {
            return false;
        } finally {
            Sessions.closeQuietly(zk);
        }
    }

    /** Which server {@code zk} is connected to (1-based), or -1. */
    public int serverOf(ZooKeeper zk) throws Exception {
        InstanceSpec s = cluster.findConnectionInstance(zk);
        return s == null ? -1 : s.getServerId();
    }

    /**
     * Expires {@code zk}'s session for real: another handle attaches to the same session and closes it, so the
     * servers delete its ephemerals and the original handle sees Expired when it next talks to a server.
     */
    public void expire(ZooKeeper zk, Target target) throws Exception {
        ZooKeeper twin = new ZooKeeper(target.connectString(), (int) target.sessionTimeout().toMillis(), e -> { },
                zk.getSessionId(), zk.getSessionPasswd());
        try {
            await("a twin handle attaches to session 0x" + Long.toHexString(zk.getSessionId()))
                    .atMost(Duration.ofSeconds(30)).until(() -> twin.getState().isConnected());
        } finally {
            twin.close();
        }
    }

    @Override
    public void close() throws Exception {
        try {
            cluster.close();
        } finally {
            deleteRecursively(directory);
        }
    }

    private static void deleteRecursively(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (var paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the ensemble's directory " + root, e);
        }
    }
}
