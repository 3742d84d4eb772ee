package io.zkchaos.harness.cluster;

import java.nio.file.Path;

/**
 * What runs ensembles: the local JVM processes of {@link io.zkchaos.harness.cluster.local.LocalBackend}, or the
 * containers of {@link io.zkchaos.harness.cluster.docker.DockerBackend}. The runner picks one by name
 * ({@link ClusterBackends}) and never names a backend class.
 */
public interface ClusterBackend {

    /** The name the CLI takes ({@code --backend local}). */
    String name();

    /** One line for people. */
    String description();

    /**
     * Starts an ensemble and waits until a quorum serves. On any failure everything started is stopped.
     *
     * @throws ClusterNotReadyException if no quorum serves in time, naming the node and its log tail
     * @throws RuntimeException         naming the problem when it cannot start (a version that does not resolve,
     *                                  an address in use)
     */
    Cluster start(ClusterConfig config);

    /**
     * Ends what a harness that was killed left running under {@code storeRoot} (the parent of run directories):
     * only what this backend can prove a dead harness started. Logs what it ends; never throws.
     */
    void reapLeftovers(Path storeRoot);
}
