package io.zkchaos.nemesis;

import io.zkchaos.nemesis.frame.FrameTaps;
import io.zkchaos.nemesis.net.LinkNetwork;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;

/**
 * What faults act on: the nodes' processes, the links between them, the client processes (when clients run in
 * processes of their own), and the {@link Choices} every fault makes its choices through (which node, which halves),
 * drawn from a seeded random source so that a seeded schedule repeats.
 *
 * @param nodes   the processes
 * @param links   the fault network
 * @param choices every choice a fault makes (which node, which order, which delay), drawn from the seeded random
 *                source or repeated from an earlier run's aim; used only from the nemesis's one thread
 * @param clients the client processes; {@link ClientControl#NONE} when clients are threads of the harness
 * @param frames  the protocol taps on the links, for faults at protocol moments (empty when the backend has none,
 *                e.g. direct links)
 */
public record NemesisTarget(NodeControl nodes, LinkNetwork links, Choices choices, ClientControl clients,
                            Optional<FrameTaps> frames) {

    public NemesisTarget {
        Objects.requireNonNull(nodes, "nodes");
        Objects.requireNonNull(links, "links");
        Objects.requireNonNull(choices, "choices");
        Objects.requireNonNull(clients, "clients");
        Objects.requireNonNull(frames, "frames");
    }

    /** A target whose clients are threads of the harness (no client faults possible), without protocol taps. */
    public NemesisTarget(NodeControl nodes, LinkNetwork links, Random random) {
        this(nodes, links, new Choices(random), ClientControl.NONE, Optional.empty());
    }

    /** A target whose clients are threads of the harness, with the links' protocol taps. */
    public NemesisTarget(NodeControl nodes, LinkNetwork links, Random random, Optional<FrameTaps> frames) {
        this(nodes, links, new Choices(random), ClientControl.NONE, frames);
    }

    /** The same target with {@code control} acting on the client processes. */
    public NemesisTarget withClients(ClientControl control) {
        return new NemesisTarget(nodes, links, choices, control, frames);
    }

    /**
     * The protocol taps.
     *
     * @throws IllegalStateException when there are none: a protocol-aware fault cannot act on this target
     */
    public FrameTaps requireFrames() {
        return frames.orElseThrow(() -> new IllegalStateException("this system has no protocol taps on its links "
                + "(direct links, or a backend without a frame decoder): protocol-aware faults cannot act"));
    }
}
