package io.zkchaos.nemesis.net;

import io.zkchaos.nemesis.partition.Partition;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;

/**
 * The fault network of a system under test, as the nemesis sees it. Per node one client link (client → server,
 * named {@code client-n1}), and per ordered pair of nodes its peer links (for ZooKeeper a quorum link and an
 * election link, named {@code n1-n2-quorum}, {@code n1-n2-election}: the connections n1 opens to n2's ports). Every cut is applied in the fault proxy and stops real TCP traffic.
 *
 * <p>Partitions are grudges, as in Jepsen: for each node, the nodes it must not hear from. Because one TCP
 * connection carries both directions, a grudge of b against a cuts the a→b stream of the links a opened to b
 * (their upstream) and of the links b opened to a (their downstream); a symmetric grudge cuts whole links with the
 * current {@link #cutMode()}. Partition methods change only what partitions set (enabled state and the black-hole
 * toxics); other toxics, such as latency, stay until {@link #heal()}.
 *
 * <p>A backend implements it over its links ({@link NodeLinks} is the one enforcement of cuts and grudges over any
 * {@link Link}s: the embedded proxy's or Toxiproxy's). Thread-safe; every method has taken effect in the proxy
 * when it returns.
 */
public interface LinkNetwork {

    /** Whether links go through the fault proxy; when false, every cut method throws. */
    boolean faultable();

    /** How symmetric cuts are made: {@link CutMode#REFUSE} (the default) or {@link CutMode#BLACKHOLE}. */
    CutMode cutMode();

    /** Sets how later symmetric cuts are made. */
    void cutMode(CutMode mode);

    /** Cuts all links between {@code a} and {@code b}, both directions (adds to the current grudge). */
    void cut(String a, String b);

    /**
     * Applies a partition: nodes in different components no longer hear each other; all other peer links are
     * healed. Nodes named in no component form one more component together.
     *
     * @throws IllegalArgumentException if a node is unknown or named twice
     */
    void partition(Collection<? extends Collection<String>> components);

    /**
     * Applies a grudge (node → nodes it must not hear from), replacing the current one; peer links not named are
     * healed.
     *
     * @throws IllegalArgumentException if a node is unknown or holds a grudge against itself
     */
    void applyGrudge(Map<String, ? extends Collection<String>> grudge);

    /** Applies a partition shape of {@link io.zkchaos.nemesis.partition.Partitions}: its grudge. */
    default void apply(Partition partition) {
        applyGrudge(partition.grudge());
    }

    /** The grudge in force: every node, with the nodes it does not hear from (empty when healed). */
    SortedMap<String, SortedSet<String>> grudge();

    /** Cuts the client link of {@code node} (current cut mode): clients connected through it lose it. */
    void cutClient(String node);

    /** Heals the client link of {@code node}. */
    void healClient(String node);

    /** Heals every link, peers and clients: cuts and all toxics. */
    void heal();

    /**
     * What the links cut or slowed now did to the traffic since the last {@link #heal()} (the window of the network
     * fault in force: one holds at a time), node by node, as the proxy counted it: connections it reset at the cut,
     * bytes it dropped, bytes it held back on a delayed link. A node felt it when any is above zero. Read before the
     * heal that ends the fault. Empty when the links keep no counts (the default: not measured).
     */
    default java.util.List<io.zkchaos.nemesis.Felt> feltSinceHeal() {
        return java.util.List.of();
    }

    /** The client link of {@code node}, for toxics. */
    Link clientLink(String node);

    /** The quorum and election links {@code from} opens to {@code to}, in that order. */
    List<Link> peerLinks(String from, String to);

    /** Every link. */
    List<Link> allLinks();
}
