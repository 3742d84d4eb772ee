package io.zkchaos.nemesis.net;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Optional;

/**
 * A set of named {@link Link}s served by one backend (the embedded proxy, or Toxiproxy). Closing the network
 * closes every link, every connection and every thread it started.
 */
public interface Network extends AutoCloseable {

    /**
     * Creates an enabled link that listens on {@code listen} (port 0 picks a free port; see
     * {@link Link#listenAddress()}) and forwards to {@code upstream}.
     *
     * @throws IllegalArgumentException      if the name is taken
     * @throws java.io.UncheckedIOException if the listen address cannot be bound, naming the address
     */
    Link createLink(String name, InetSocketAddress listen, InetSocketAddress upstream);

    /** The link of that name, if any. */
    Optional<Link> link(String name);

    /** Every link, in creation order. */
    List<Link> links();

    /** Closes a link and its connections and forgets it; returns whether it existed. */
    boolean removeLink(String name);

    /**
     * Runs {@code changes} to this network's links so that they take effect together, once all are made: a network
     * whose links are set somewhere else (iptables on hosts) sends them in one step per place. The links' methods keep
     * their contract within it; only when the changes reach the network may wait until {@code changes} returns. By
     * default each change takes effect as it is made.
     */
    default void batch(Runnable changes) {
        changes.run();
    }

    /** Heals every link (see {@link Link#heal()}). */
    default void healAll() {
        for (Link l : links()) {
            l.heal();
        }
    }

    /** Closes every link, connection and thread; idempotent. */
    @Override
    void close();
}
