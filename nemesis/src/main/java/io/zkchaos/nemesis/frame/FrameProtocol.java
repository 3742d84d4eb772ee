package io.zkchaos.nemesis.frame;

import io.zkchaos.nemesis.net.Stream;

/**
 * A protocol the fault proxy can follow on some links: which links carry it and a decoder per stream. The nemesis
 * module defines it and knows no protocol; a backend implements it for its system (the harness: ZooKeeper's
 * quorum packets on the quorum links).
 */
public interface FrameProtocol {

    /** A short name for records, e.g. {@code zab}. */
    String name();

    /** Whether the link of that name carries this protocol (ZooKeeper: the quorum links, {@code n1-n2-quorum}). */
    boolean carries(String linkName);

    /**
     * A fresh decoder for one stream of one new connection. {@link Stream#UPSTREAM} is what the node that opened the
     * connection sends, {@link Stream#DOWNSTREAM} what it receives.
     */
    FrameDecoder newDecoder(Stream stream);

    /**
     * The moments of the protocol's recovery a fault may aim at (ZooKeeper: a follower's sync with its leader), in a
     * stable order; faults choose among them from the seed.
     */
    java.util.List<FrameMoment> syncMoments();
}
