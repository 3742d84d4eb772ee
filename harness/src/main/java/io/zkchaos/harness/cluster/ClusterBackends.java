package io.zkchaos.harness.cluster;

import io.zkchaos.harness.cluster.docker.DockerBackend;
import io.zkchaos.harness.cluster.local.LocalBackend;
import io.zkchaos.harness.cluster.ssh.SshBackend;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The cluster backends by the names the CLI takes ({@code --backend NAME}): {@code local} (the default),
 * {@code docker} and {@code ssh} (which runs only with its hosts: {@link SshBackend#SshBackend(
 * io.zkchaos.harness.cluster.ssh.SshSettings)}).
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
}
