package io.zkchaos.nemesis.frame;

import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * A moment of a protocol a fault may aim at, named by its {@link FrameProtocol}: frames of these types in this
 * phase (ZooKeeper, for a follower's sync with its leader: the {@code DIFF}, {@code TRUNC} or {@code SNAP} that
 * opens it, the snapshot, {@code NEWLEADER}, the follower's {@code ACK} of it, {@code UPTODATE}, ...).
 *
 * @param name  how records call it, e.g. {@code sync-start}
 * @param types the frame types
 * @param phase the phase they must be in, or empty for any
 * @param body  whether the frames have a long body (a snapshot) that a fault may cut into after N bytes
 */
public record FrameMoment(String name, Set<String> types, String phase, boolean body) {

    public FrameMoment {
        Objects.requireNonNull(name, "name");
        types = Set.copyOf(types);
        Objects.requireNonNull(phase, "phase");
    }

    @Override
    public String toString() {
        return name + " (" + String.join("|", new TreeSet<>(types)) + (phase.isEmpty() ? "" : " in " + phase) + ")";
    }
}
