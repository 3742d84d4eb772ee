package io.zkchaos.cluster;

import java.util.Collection;
import java.util.Set;

/**
 * The links of an ensemble: per node one client link (client → server), and per ordered pair of nodes a quorum
 * link and an election link. A cut stops real TCP traffic: it is applied in the fault proxy.
 *
 * <p>A proxied TCP connection carries both directions, so cuts between nodes are symmetric: {@link #cut(String,
 * String)} cuts every link between the two nodes, whichever side opened the connection.
 */
public interface ClusterNetwork {

    /** Whether links go through the fault proxy; when false, every cut method throws. */
    boolean faultable();

    /** Cuts all links between {@code a} and {@code b} (quorum and election, both directions). */
    void cut(String a, String b);

    /**
     * Applies a partition: nodes in different components can no longer talk; links within a component are
     * healed. Nodes named in no component form one more component together.
     *
     * @throws IllegalArgumentException if a node is unknown or named twice
     */
    void partition(Collection<? extends Collection<String>> components);

    /**
     * Applies a grudge: for each node, the nodes it must not hear from. Since TCP links carry both directions,
     * a grudge of a against b cuts the links between a and b both ways. Links not named are healed.
     */
    void applyGrudge(java.util.Map<String, ? extends Collection<String>> grudge);

    /** Cuts the client link of {@code node}: clients connected through it lose their connection. */
    void cutClient(String node);

    /** Heals the client link of {@code node}. */
    void healClient(String node);

    /** Heals every link: peers and clients, cuts and toxics. */
    void heal();

    /** The unordered node pairs that are cut now, each as a two-element set. */
    Set<Set<String>> cutPairs();
}
