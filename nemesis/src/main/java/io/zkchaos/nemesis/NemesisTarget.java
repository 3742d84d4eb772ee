package io.zkchaos.nemesis;

import io.zkchaos.nemesis.net.LinkNetwork;
import java.util.Objects;
import java.util.Random;

/**
 * What faults act on: the nodes' processes, the links between them, and the seeded random source of every choice a
 * fault makes (which node, which halves), so that a seeded schedule repeats.
 *
 * @param nodes  the processes
 * @param links  the fault network
 * @param random node choices; used only from the nemesis's one thread
 */
public record NemesisTarget(NodeControl nodes, LinkNetwork links, Random random) {

    public NemesisTarget {
        Objects.requireNonNull(nodes, "nodes");
        Objects.requireNonNull(links, "links");
        Objects.requireNonNull(random, "random");
    }
}
