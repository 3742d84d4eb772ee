package io.zkchaos.nemesis.net;

import java.net.InetSocketAddress;
import java.util.List;

/**
 * One directed TCP link through a fault proxy, with Toxiproxy's model: a proxy listening on {@link #listenAddress()}
 * forwards every accepted connection to {@link #upstreamAddress()}. A link is either enabled (listening, forwarding)
 * or disabled (not listening, no connections), and carries an ordered list of {@link Toxic}s, applied in the order
 * they were added.
 *
 * <p>Every mutating method has taken effect when it returns: after {@code disable()} no byte passes and the port
 * refuses connections; after {@code addToxic} every connection (existing and new) that the toxic applies to is
 * affected. Methods are thread-safe. Implementations: the embedded NIO proxy's
 * {@link io.zkchaos.nemesis.proxy.ProxyLink} and {@link io.zkchaos.nemesis.toxiproxy.ToxiproxyLink} (over
 * Toxiproxy's API).
 */
public interface Link {

    /** Unique name within its network, e.g. {@code s1-s2-quorum}. */
    String name();

    /** The address clients connect to; for a port-0 link, the port actually bound. */
    InetSocketAddress listenAddress();

    /** The address connections are forwarded to. */
    InetSocketAddress upstreamAddress();

    /** Whether the link listens and forwards. */
    boolean enabled();

    /**
     * Enables or disables the link. Disabling closes every connection and the listening socket, so new
     * connections are refused; enabling listens again on the same address.
     *
     * @throws java.io.UncheckedIOException if the address cannot be bound again, naming it
     */
    void setEnabled(boolean enabled);

    /** The toxics in the order they apply. */
    List<Toxic> toxics();

    /**
     * Adds a toxic after the existing ones.
     *
     * @throws IllegalArgumentException if a toxic of that name already exists on this link
     */
    void addToxic(Toxic toxic);

    /**
     * Removes the named toxic.
     *
     * @return whether there was such a toxic
     */
    boolean removeToxic(String name);

    /** Counters since the link was created. */
    LinkStats stats();

    /**
     * Whether {@link #stats()} counts what passes and what is dropped; false for a proxy that keeps no counters (its
     * stats are all zeros), whose faults are then not measured.
     */
    default boolean counts() {
        return true;
    }

    /** Toxic names used by {@link #cut(CutMode)} for {@link CutMode#BLACKHOLE}. */
    String BLACKHOLE_UPSTREAM = "blackhole_upstream";
    String BLACKHOLE_DOWNSTREAM = "blackhole_downstream";

    /**
     * Cuts the link: {@link CutMode#REFUSE} disables it, {@link CutMode#BLACKHOLE} adds a {@code timeout} toxic with
     * timeout 0 on each stream (named {@link #BLACKHOLE_UPSTREAM}, {@link #BLACKHOLE_DOWNSTREAM}). Cutting an
     * already black-holed link again is a no-op.
     */
    default void cut(CutMode mode) {
        switch (mode) {
            case REFUSE -> setEnabled(false);
            case BLACKHOLE -> {
                List<String> present = toxics().stream().map(Toxic::name).toList();
                if (!present.contains(BLACKHOLE_UPSTREAM)) {
                    addToxic(Toxic.timeout(BLACKHOLE_UPSTREAM, Stream.UPSTREAM, 0));
                }
                if (!present.contains(BLACKHOLE_DOWNSTREAM)) {
                    addToxic(Toxic.timeout(BLACKHOLE_DOWNSTREAM, Stream.DOWNSTREAM, 0));
                }
            }
        }
    }

    /** Heals the link: enables it and removes every toxic. */
    default void heal() {
        for (Toxic t : toxics()) {
            removeToxic(t.name());
        }
        setEnabled(true);
    }
}
