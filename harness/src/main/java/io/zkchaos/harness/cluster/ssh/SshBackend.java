package io.zkchaos.harness.cluster.ssh;

import io.zkchaos.harness.cluster.Capabilities;
import io.zkchaos.harness.cluster.Capability;
import io.zkchaos.harness.cluster.Cluster;
import io.zkchaos.harness.cluster.ClusterBackend;
import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.SystemUnderTest;
import io.zkchaos.harness.process.Reaper;
import io.zkchaos.nemesis.net.ToxicType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Ensembles on hosts reached over SSH, Jepsen's way: see {@link SshCluster}. The hosts are part of the run's
 * configuration ({@link SshSettings}, {@code --hosts FILE}); the backend listed by name ({@code --backend ssh}) has
 * none and refuses to start.
 *
 * <p>What it can do ({@link #capabilities}): run ZooKeeper and the fle nodes; no lazy file system (the data stays on
 * the hosts' own disks), no protocol taps (no proxy sees the quorum's bytes). Delaying links takes {@code tc netem} in
 * every host's kernel, so that capability is asked of the hosts themselves, once per set of hosts, and only when a
 * fault of the run needs it ({@link Capabilities}).
 */
public final class SshBackend implements ClusterBackend {

    /** The name the CLI takes. */
    public static final String NAME = "ssh";

    /** Per set of hosts, why they cannot delay links ({@code ""} when they can): their kernels asked once. */
    private static final Map<SshSettings, String> NO_DELAY = new ConcurrentHashMap<>();

    private final SshSettings settings;

    /** The backend as listed, without hosts: it cannot start an ensemble. */
    public SshBackend() {
        this(null);
    }

    /** The backend on these hosts. */
    public SshBackend(SshSettings settings) {
        this.settings = settings;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "one JVM per host over SSH (--hosts FILE); faults made on the hosts with iptables, tc and signals";
    }

    @Override
    public Set<Capability> capabilities(SystemUnderTest system) {
        Set<Capability> has = EnumSet.of(Capability.RUNS);
        if (settings != null && whyNoDelay().isEmpty()) {
            has.add(Capability.LINK_DELAY);
        }
        return has;
    }

    @Override
    public String whyNot(Capability missing, SystemUnderTest system) {
        return switch (missing) {
            case LAZY_FS -> "the servers keep their data on the hosts' own file systems";
            case PROTOCOL_TAPS -> "its links are the hosts' firewall rules: no proxy sees the quorum's bytes";
            case LINK_DELAY -> settings == null ? "without hosts (--hosts FILE) there is no kernel to ask"
                    : whyNoDelay();
            case RUNS -> "";
        };
    }

    /** Why these hosts cannot delay links, or empty: each host's kernel is tried for tc netem (once). */
    private String whyNoDelay() {
        return NO_DELAY.computeIfAbsent(settings, SshBackend::askHostsForDelay);
    }

    private static String askHostsForDelay(SshSettings settings) {
        List<String> cannot = new ArrayList<>();
        try (SshHosts hosts = SshHosts.connect(settings, settings.hosts().size())) {
            for (HostSession s : hosts.sessions().values()) {
                HostSession.Result probe = s.execPrivileged("sh -c " + Shell.quote(HostShaper.probeScript()));
                HostShaper.of(s, List.of(probe.out().split("\n"))).whyNot(ToxicType.LATENCY).ifPresent(cannot::add);
            }
        } catch (RuntimeException e) {
            return "the hosts could not be asked whether their kernels have tc netem: " + e.getMessage();
        }
        return String.join("; ", cannot);
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
