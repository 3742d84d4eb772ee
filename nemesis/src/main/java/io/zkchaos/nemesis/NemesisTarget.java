package io.zkchaos.nemesis;

import io.zkchaos.nemesis.net.LinkNetwork;
import java.util.Objects;
import java.util.Random;

/**
 * What faults act on: the nodes' processes, the links between them, the client processes (when clients run in
 * processes of their own), and the seeded random source of every choice a fault makes (which node, which halves),
 * so that a seeded schedule repeats.
 *
 * @param nodes   the processes
 * @param links   the fault network
 * @param random  node choices; used only from the nemesis's one thread
 * @param clients the client processes; {@link ClientControl#NONE} when clients are threads of the harness
 */
public record NemesisTarget(NodeControl nodes, LinkNetwork links, Random random, ClientControl clients) {

    public NemesisTarget {
        Objects.requireNonNull(nodes, "nodes");
        Objects.requireNonNull(links, "links");
        Objects.requireNonNull(random, "random");
        Objects.requireNonNull(clients, "clients");
    }

    /** A target whose clients are threads of the harness (no client faults possible). */
    public NemesisTarget(NodeControl nodes, LinkNetwork links, Random random) {
        this(nodes, links, random, ClientControl.NONE);
    }

    /** The same target with {@code control} acting on the client processes. */
    public NemesisTarget withClients(ClientControl control) {
        return new NemesisTarget(nodes, links, random, control);
    }
}
