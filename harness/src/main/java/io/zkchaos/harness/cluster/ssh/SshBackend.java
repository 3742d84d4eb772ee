package io.zkchaos.harness.cluster.ssh;

import io.zkchaos.harness.cluster.Cluster;
import io.zkchaos.harness.cluster.ClusterBackend;
import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.process.Reaper;
import java.nio.file.Path;

/**
 * Ensembles on hosts reached over SSH, Jepsen's way: see {@link SshCluster}. The hosts are part of the run's
 * configuration ({@link SshSettings}, {@code --hosts FILE}); the backend listed by name ({@code --backend ssh}) has
 * none and refuses to start.
 */
public final class SshBackend implements ClusterBackend {

    /** The name the CLI takes. */
    public static final String NAME = "ssh";

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
