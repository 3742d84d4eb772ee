package io.zkchaos.harness.cluster;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * What runs ensembles: JVM processes on this machine ({@code local}), containers ({@code docker}). The runner picks
 * one by name ({@link ClusterBackends}) and never names a backend class; what it can do is data
 * ({@link #capabilities}), checked in one place ({@link Capabilities}).
 */
public interface ClusterBackend {

    /** The name the CLI takes ({@code --backend local}). */
    String name();

    /** One line for people. */
    String description();

    /**
     * Refuses an ensemble of {@code nodes} nodes that this backend, as configured, has nowhere to run: checked when a
     * run's configuration is made, before anything starts. Nothing to refuse by default (the node count's own rule is
     * {@link ClusterConfig#ENSEMBLE_SIZES}); the ssh backend needs its hosts, one a node.
     *
     * @throws IllegalArgumentException naming the field (as the CLI spells it) and what is missing
     */
    default void requireNodes(int nodes) {
    }

    /**
     * The names of the hosts that run the first {@code nodes} nodes, in node order ({@code n1} on the first): what
     * {@code config.json} keeps of where the nodes ran ({@code "hosts"}). Empty for a backend that names no hosts.
     */
    default List<String> hostNames(int nodes) {
        return List.of();
    }

    /** What it can do for {@code system}: nothing at all (no {@link Capability#RUNS}) if it does not run it. */
    Set<Capability> capabilities(SystemUnderTest system);

    /**
     * Why it lacks {@code missing} for {@code system}, in words that follow the capability's own ("... : the hosts'
     * kernels have no tc netem (h1 answered ...)"), or empty when there is nothing to add.
     */
    default String whyNot(Capability missing, SystemUnderTest system) {
        return "";
    }

    /**
     * What this machine lacks for this backend to do {@code capability} for {@code system}, in words that name it
     * ({@code libfaketime (not found at /x)}), or empty when nothing is missing. {@link #capabilities} says what the
     * backend can do where its machine has what it needs, never consulting the machine, so that a run's draw of
     * faults is the same everywhere; this is asked once, before a run starts, to refuse it
     * ({@link Capabilities#requireHere}).
     */
    default java.util.Optional<String> missingHere(Capability capability, SystemUnderTest system) {
        return java.util.Optional.empty();
    }

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
