package io.zkchaos.harness.cluster;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import io.zkchaos.fle.Bugs;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Everything that defines an ensemble, independent of the backend that runs it. Immutable; build one with
 * {@link #builder()}, which validates every field and names the one that is wrong.
 *
 * @param nodes              number of servers, one of {@link #ENSEMBLE_SIZES}: 3 or 5, 1 standalone for smoke tests
 * @param version            the ZooKeeper version under test, resolved from Maven repositories (its
 *                           {@link ZooKeeperVersion#text() text})
 * @param tickTime           ZooKeeper's {@code tickTime}, the unit of every server-side timeout
 * @param initLimit          ticks a follower may take to connect and sync to a leader
 * @param syncLimit          ticks a follower may lag behind the leader before it is dropped
 * @param minSessionTimeout  the smallest session timeout the servers grant
 * @param maxSessionTimeout  the largest session timeout the servers grant (clients asking more get this)
 * @param maxElectionBackoff the cap of a server's election notification back-off
 *                           ({@code zookeeper.fastleader.maxNotificationInterval}; 60 s by default in ZooKeeper,
 *                           which makes an isolated node rejoin slowly)
 * @param runDirectory       where every file of the run goes: configs, data, logs, pid files
 * @param baseAddress        loopback address of node 1 (default 127.0.0.101); node i gets {@code base + i - 1},
 *                           links get further addresses above the nodes (see the local backend)
 * @param proxied            whether every link goes through the fault proxy (false: direct links, no network
 *                           faults possible; for comparisons and smoke tests)
 * @param startTimeout       how long {@code start()} waits for a quorum to serve
 * @param serverJvmOptions   JVM options of every server process
 * @param extraServerConfig  extra {@code zoo.cfg} settings, added after (and overriding) the generated ones
 * @param seed               seeds every random choice of the cluster (the fault proxy's toxics)
 * @param sync               how followers sync with their leader ({@link SyncMode}): ZooKeeper's defaults, or
 *                           steered to DIFF, SNAP or TRUNC with its system properties
 * @param lazyFs             whether every server's data directory is on zk-chaos's lazy file system, which holds
 *                           writes in memory until fsync so that a crash can lose what was not fsynced (local
 *                           backend only; see {@code docs/lazyfs.md})
 * @param clocks             whether the servers start so that their wall clocks can be moved (the local backend
 *                           preloads libfaketime into them; see {@code docs/clocks.md}): the clock faults set it
 * @param system             what runs on the nodes: ZooKeeper (the default) or the project's own fle nodes
 * @param bugs               the fle nodes' bug flags ({@link Bugs#NONE}: the correct build); none for ZooKeeper
 * @param server             how the servers keep their data ({@code forceSync}, {@code snapCount}), typed; written
 *                           into {@code zoo.cfg} before the extra settings
 */
public record ClusterConfig(
        int nodes,
        ZooKeeperVersion version,
        Duration tickTime,
        int initLimit,
        int syncLimit,
        Duration minSessionTimeout,
        Duration maxSessionTimeout,
        Duration maxElectionBackoff,
        Path runDirectory,
        String baseAddress,
        boolean proxied,
        Duration startTimeout,
        List<String> serverJvmOptions,
        Map<String, String> extraServerConfig,
        long seed,
        SyncMode sync,
        boolean lazyFs,
        boolean clocks,
        SystemUnderTest system,
        Bugs bugs,
        ServerSettings server) {

    /**
     * The ensemble sizes the harness runs, on every backend: the one rule for a node count (the run configuration
     * refuses others by building this). 3 and 5 are the sizes its nemeses, checkers and shrinker are written and
     * tested for (a quorum of 2 or 3, a minority to cut off); 1 is a standalone server for smoke runs, where no
     * network fault applies. Even sizes tolerate no more failures than the odd size below them. Not a limit of a
     * backend: the local address plan has room for 15 nodes ({@code Addresses.STRIDE}), the ssh backend for one a
     * host, the docker backend for one a container.
     */
    public static final java.util.Set<Integer> ENSEMBLE_SIZES = java.util.Set.of(1, 3, 5);

    public ClusterConfig {
        serverJvmOptions = List.copyOf(serverJvmOptions);
        extraServerConfig = Map.copyOf(extraServerConfig);
        sync = sync == null ? SyncMode.AUTO : sync;
        system = system == null ? SystemUnderTest.ZOOKEEPER : system;
        bugs = bugs == null ? Bugs.NONE : bugs;
        server = server == null ? ServerSettings.DEFAULTS : server;
    }

    /** What runs on the nodes, for people: {@code ZooKeeper 3.9.5}, {@code fle nodes (bugs: none)}. */
    public String systemSummary() {
        return system == SystemUnderTest.ZOOKEEPER ? "ZooKeeper " + version : "fle nodes (bugs: " + bugs + ")";
    }

    /** Node names, {@code n1 .. nN}: the names used in every API, fault record and log. */
    public List<String> nodeNames() {
        return java.util.stream.IntStream.rangeClosed(1, nodes).mapToObj(i -> "n" + i).toList();
    }

    /** The smallest number of servers that forms a quorum. */
    public int quorumSize() {
        return nodes / 2 + 1;
    }

    /** A builder with the defaults: 3 nodes, ZooKeeper 3.9.5, tickTime 200 ms, proxied links. */
    public static Builder builder() {
        return new Builder();
    }

    /** The concrete builder of {@link ClusterConfig}. */
    public static final class Builder extends AbstractBuilder<Builder> {
        @Override
        protected Builder self() {
            return this;
        }
    }

    /**
     * A self-typed builder, so that a backend's builder can extend it and keep its fluent type.
     *
     * @param <B> the concrete builder
     */
    public abstract static class AbstractBuilder<B extends AbstractBuilder<B>> {
        private int nodes = 3;
        private ZooKeeperVersion version = ZooKeeperVersion.DEFAULT;
        private Duration tickTime = Duration.ofMillis(200);
        private int initLimit = 10;
        private int syncLimit = 5;
        private Duration minSessionTimeout;
        private Duration maxSessionTimeout = Duration.ofSeconds(30);
        private Duration maxElectionBackoff = Duration.ofMillis(1000);
        private Path runDirectory;
        // Not 127.0.0.1: every outgoing connection on this machine leaves from 127.0.0.1 with an ephemeral port,
        // which could take a server's port between a kill and its restart. Addresses above it are only bound.
        private String baseAddress = "127.0.0.101";
        private boolean proxied = true;
        private Duration startTimeout = Duration.ofSeconds(60);
        private List<String> serverJvmOptions = List.of("-Xmx128m", "-Xms32m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", "-Xss512k");
        private Map<String, String> extraServerConfig = new TreeMap<>();
        private long seed;
        private SyncMode sync = SyncMode.AUTO;
        private ServerSettings server = ServerSettings.DEFAULTS;
        private boolean lazyFs;
        private boolean clocks;
        private SystemUnderTest system = SystemUnderTest.ZOOKEEPER;
        private Bugs bugs = Bugs.NONE;

        protected abstract B self();

        public B nodes(int n) {
            this.nodes = n;
            return self();
        }

        /** @throws IllegalArgumentException naming the text when it is not a ZooKeeper version */
        public B version(String v) {
            return version(ZooKeeperVersion.of(v));
        }

        public B version(ZooKeeperVersion v) {
            this.version = v;
            return self();
        }

        public B tickTime(Duration d) {
            this.tickTime = d;
            return self();
        }

        public B initLimit(int ticks) {
            this.initLimit = ticks;
            return self();
        }

        public B syncLimit(int ticks) {
            this.syncLimit = ticks;
            return self();
        }

        /** Defaults to 2 × tickTime, ZooKeeper's own default. */
        public B minSessionTimeout(Duration d) {
            this.minSessionTimeout = d;
            return self();
        }

        /** Defaults to 30 s: enough for workload sessions that must survive a failover. */
        public B maxSessionTimeout(Duration d) {
            this.maxSessionTimeout = d;
            return self();
        }

        public B maxElectionBackoff(Duration d) {
            this.maxElectionBackoff = d;
            return self();
        }

        /** Defaults to {@code target/zkchaos-clusters/<time>-<random>} under the working directory. */
        public B runDirectory(Path p) {
            this.runDirectory = p;
            return self();
        }

        public B baseAddress(String a) {
            this.baseAddress = a;
            return self();
        }

        public B proxied(boolean p) {
            this.proxied = p;
            return self();
        }

        public B startTimeout(Duration d) {
            this.startTimeout = d;
            return self();
        }

        public B serverJvmOptions(List<String> options) {
            this.serverJvmOptions = options;
            return self();
        }

        /** How the servers keep their data ({@code forceSync}, {@code snapCount}). */
        public B server(ServerSettings s) {
            this.server = s;
            return self();
        }

        public B serverConfig(String key, String value) {
            this.extraServerConfig.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
            return self();
        }

        public B seed(long s) {
            this.seed = s;
            return self();
        }

        /** Defaults to {@link SyncMode#AUTO}: ZooKeeper's own choice. */
        public B sync(SyncMode mode) {
            this.sync = mode;
            return self();
        }

        /** Data directories on the lazy file system (default false: the machine's own file system). */
        public B lazyFs(boolean on) {
            this.lazyFs = on;
            return self();
        }

        /** Servers whose wall clocks can be moved (default false: the machine's clock, nothing preloaded). */
        public B clocks(boolean on) {
            this.clocks = on;
            return self();
        }

        /** Defaults to {@link SystemUnderTest#ZOOKEEPER}. */
        public B system(SystemUnderTest s) {
            this.system = s;
            return self();
        }

        /** The fle nodes' bug flags; defaults to {@link Bugs#NONE}. */
        public B bugs(Bugs b) {
            this.bugs = b;
            return self();
        }

        /**
         * Validates and builds.
         *
         * @throws IllegalArgumentException naming the first field that is wrong and why
         */
        public ClusterConfig build() {
            if (!ENSEMBLE_SIZES.contains(nodes)) {
                throw new IllegalArgumentException("nodes: an ensemble's nodes must be 3 or 5 (1 for a smoke run, "
                        + "standalone), got " + nodes);
            }
            if (version == null) {
                throw new IllegalArgumentException("version: must be a ZooKeeper version such as 3.9.5, was null");
            }
            requirePositive("tickTime", tickTime);
            if (initLimit < 1) {
                throw new IllegalArgumentException("initLimit: must be at least 1 tick, was " + initLimit);
            }
            if (syncLimit < 1) {
                throw new IllegalArgumentException("syncLimit: must be at least 1 tick, was " + syncLimit);
            }
            Duration min = minSessionTimeout == null ? tickTime.multipliedBy(2) : minSessionTimeout;
            requirePositive("minSessionTimeout", min);
            requirePositive("maxSessionTimeout", maxSessionTimeout);
            if (min.compareTo(tickTime.multipliedBy(2)) < 0) {
                throw new IllegalArgumentException("minSessionTimeout: must be at least 2 x tickTime ("
                        + tickTime.multipliedBy(2).toMillis() + " ms), was " + min.toMillis() + " ms");
            }
            if (maxSessionTimeout.compareTo(min) < 0) {
                throw new IllegalArgumentException("maxSessionTimeout: must be >= minSessionTimeout ("
                        + min.toMillis() + " ms), was " + maxSessionTimeout.toMillis() + " ms");
            }
            requirePositive("maxElectionBackoff", maxElectionBackoff);
            requirePositive("startTimeout", startTimeout);
            if (baseAddress == null) {
                throw new IllegalArgumentException("baseAddress: must be a 127.x.y.z address, was null");
            }
            try {
                InetAddress a = InetAddress.getByName(baseAddress);
                if (!(a instanceof Inet4Address) || !a.isLoopbackAddress() || !baseAddress.matches("[0-9.]+")) {
                    throw new IllegalArgumentException("baseAddress: must be a literal IPv4 loopback address "
                            + "(127.x.y.z), was " + baseAddress);
                }
            } catch (UnknownHostException e) {
                throw new IllegalArgumentException("baseAddress: not an address: " + baseAddress, e);
            }
            if (serverJvmOptions == null) {
                throw new IllegalArgumentException("serverJvmOptions: must not be null");
            }
            for (String option : serverJvmOptions) {
                if (option == null || option.isBlank() || !option.startsWith("-")) {
                    throw new IllegalArgumentException("serverJvmOptions: each must start with '-', got '"
                            + option + "'");
                }
            }
            if (sync == null) {
                throw new IllegalArgumentException("sync: must be auto, diff, snap, trunc or snap-on-lag, was null");
            }
            if (proxied && nodes > 1 && !version.bindsOwnAddressOnly()) {
                throw new IllegalArgumentException("version: ZooKeeper " + version + " binds its election and quorum "
                        + "ports on every address (quorumListenOnAllIPs came in 3.4.6), which the fault proxy's "
                        + "address plan cannot share; use 3.4.6 or later, or direct links (proxied(false), no "
                        + "network faults)");
            }
            try {
                sync.jvmOptions(version);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("sync: " + e.getMessage(), e);
            }
            if (system == null) {
                throw new IllegalArgumentException("system: must be one of zookeeper, fle, was null");
            }
            if (bugs == null) {
                throw new IllegalArgumentException("bugs: must be a set of bug flags (Bugs.NONE for none), was null");
            }
            if (!bugs.none() && system != SystemUnderTest.FLE) {
                throw new IllegalArgumentException("bugs: only the fle nodes have bug flags; " + system
                        + " runs as released (was " + bugs + ")");
            }
            Path dir = runDirectory != null ? runDirectory : defaultRunDirectory();
            return new ClusterConfig(nodes, version, tickTime, initLimit, syncLimit, min, maxSessionTimeout,
                    maxElectionBackoff, dir.toAbsolutePath().normalize(), baseAddress, proxied, startTimeout,
                    serverJvmOptions, extraServerConfig, seed, sync, lazyFs, clocks, system, bugs, server);
        }

        private static void requirePositive(String field, Duration d) {
            if (d == null || d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException(field + ": must be a positive duration, was " + d);
            }
        }

        private static Path defaultRunDirectory() {
            String stamp = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC)
                    .format(Instant.now());
            return Path.of("target", "zkchaos-clusters",
                    stamp + "-" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x10000, 0xfffff)));
        }
    }
}
