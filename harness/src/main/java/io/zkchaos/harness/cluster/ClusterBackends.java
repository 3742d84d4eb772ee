package io.zkchaos.harness.cluster;

import io.zkchaos.harness.cluster.docker.DockerBackend;
import io.zkchaos.harness.cluster.local.LocalBackend;
import io.zkchaos.harness.cluster.ssh.SshBackend;
import io.zkchaos.harness.cluster.ssh.SshSettings;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The cluster backends by the names the CLI takes ({@code --backend NAME}): {@code local} (the default),
 * {@code docker} and {@code ssh} (which runs only with its hosts: {@link #named}).
 */
public final class ClusterBackends {

    public static final String DEFAULT = "local";

    private static final Map<String, ClusterBackend> ALL = new LinkedHashMap<>();

    static {
        add(new LocalBackend());
        add(new DockerBackend());
        add(new SshBackend());
    }

    private ClusterBackends() {
    }

    private static void add(ClusterBackend b) {
        ALL.put(b.name(), b);
    }

    /** Every backend, in order. */
    public static List<ClusterBackend> all() {
        return List.copyOf(ALL.values());
    }

    /** @throws IllegalArgumentException naming the unknown backend and listing the known ones */
    public static ClusterBackend require(String name) {
        ClusterBackend b = ALL.get(name);
        if (b == null) {
            throw new IllegalArgumentException("unknown backend '" + name + "'; known: "
                    + String.join(", ", ALL.keySet()));
        }
        return b;
    }

    /**
     * The backend named {@code name} ({@code --backend}), on {@code hosts} when given ({@code --hosts FILE}): the
     * one place a backend's name and the hosts meet, where hosts are refused for any backend but ssh.
     *
     * @param hosts the hosts and how to reach them; null for none
     * @throws IllegalArgumentException naming an unknown backend, or hosts given to another backend
     */
    public static ClusterBackend named(String name, SshSettings hosts) {
        ClusterBackend listed = require(name);
        if (hosts == null) {
            return listed;
        }
        if (!listed.name().equals(SshBackend.NAME)) {
            throw new IllegalArgumentException("hosts: only the ssh backend runs on hosts (--backend ssh); backend "
                    + "is " + name);
        }
        return new SshBackend(hosts);
    }
}
