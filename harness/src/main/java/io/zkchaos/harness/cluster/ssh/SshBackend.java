package io.zkchaos.harness.cluster.ssh;

import io.zkchaos.harness.cluster.Capability;
import io.zkchaos.harness.cluster.Cluster;
import io.zkchaos.harness.cluster.ClusterBackend;
import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.NamedBackend;
import io.zkchaos.harness.cluster.SystemUnderTest;
import io.zkchaos.harness.process.Reaper;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Ensembles on hosts reached over SSH, Jepsen's way: see {@link SshCluster}. The hosts are part of the run's
 * configuration ({@link SshSettings}, {@code --hosts FILE}); the backend listed by name ({@code --backend ssh}) has
 * none and refuses to start.
 *
 * <p>What it can do ({@link #capabilities}): run ZooKeeper and the fle nodes, move the servers' wall clocks
 * (libfaketime preloaded on the hosts: a host without it fails the start, naming it) and empty a ZooKeeper server's
 * data directory (the {@code replace-disk} fault); no lazy file system (the data stays on
 * the hosts' own disks), no protocol taps (no proxy sees the quorum's bytes), and no delay on every link (what
 * clients send leaves this machine unshaped): {@code slow-network} is refused at config, naming why, and
 * {@code mixed} goes without it. A link's own latency or bandwidth toxic on the stream a host sends is made with
 * {@code tc} where that host's kernel has it, and refused naming the host where it has not ({@link HostShaper}).
 */
public final class SshBackend extends NamedBackend {

    /** The name the CLI takes. */
    public static final String NAME = "ssh";

    private final SshSettings settings;

    /** The backend as listed, without hosts: it cannot start an ensemble. */
    public SshBackend() {
        this(null);
    }

    /** The backend on these hosts. */
    public SshBackend(SshSettings settings) {
        super(NAME, "one JVM per host over SSH (--hosts FILE); faults made on the hosts with iptables, tc and signals",
                SshCluster.class, EnumSet.allOf(SystemUnderTest.class), Set.of());
        this.settings = settings;
    }

    /** Its hosts and how it reaches them; null for the backend as listed. */
    public SshSettings settings() {
        return settings;
    }

    /** @throws IllegalArgumentException without hosts, or with fewer hosts than nodes */
    @Override
    public void requireNodes(int nodes) {
        if (settings == null) {
            throw new IllegalArgumentException("hosts: --backend ssh runs on the hosts of a hosts file: "
                    + "--hosts FILE (one host a line)");
        }
        if (settings.hosts().size() < nodes) {
            throw new IllegalArgumentException("nodes: " + nodes + " nodes need " + nodes + " hosts; the hosts "
                    + "file names " + settings.hosts().size());
        }
    }

    @Override
    public List<String> hostNames(int nodes) {
        return settings == null ? List.of() : settings.hosts().stream().limit(nodes).map(SshHost::name).toList();
    }

    /** The same backend when on the same hosts, reached the same way: a run's configuration is a value. */
    @Override
    public boolean equals(Object o) {
        return o instanceof SshBackend other && Objects.equals(settings, other.settings);
    }

    @Override
    public int hashCode() {
        return Objects.hashCode(settings);
    }

    @Override
    public String whyNot(Capability missing, SystemUnderTest system) {
        return switch (missing) {
            case LAZY_FS -> "the servers keep their data on the hosts' own file systems";
            case PROTOCOL_TAPS -> "its links are the hosts' firewall rules: no proxy sees the quorum's bytes";
            case LINK_DELAY -> "a host delays only what it sends (tc netem on its way out), and what the clients send "
                    + "leaves the harness's own machine, where zk-chaos shapes nothing; a link's downstream latency is "
                    + "made where the host's kernel has netem";
            case EMPTIES_DATA -> "only ZooKeeper servers' data directories are emptied, not the fle nodes'";
            case CLOCKS, RUNS -> "";
        };
    }

    /** @throws IllegalArgumentException when this backend was made without hosts */
    @Override
    public Cluster start(ClusterConfig config) {
        if (settings == null) {
            throw new IllegalArgumentException("backend ssh: needs its hosts (--hosts FILE, one host a line)");
        }
        return SshCluster.start(config, settings);
    }

    /**
     * Ends the processes killed harnesses left on this machine (a run's client processes: {@link Reaper}); what they
     * left on the hosts is ended by every {@link SshCluster#start}, which is connected to them.
     */
    @Override
    public void reapLeftovers(Path storeRoot) {
        Reaper.reapLeftovers(storeRoot);
    }
}
