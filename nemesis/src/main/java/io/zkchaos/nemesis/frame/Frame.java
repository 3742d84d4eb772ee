package io.zkchaos.nemesis.frame;

import java.util.Objects;

/**
 * One unit of a protocol stream, as a {@link FrameDecoder} names it: a packet, or a long body that follows one
 * (ZooKeeper's snapshot after a {@code SNAP} packet). Nothing here knows the protocol: types and phases are the
 * decoder's words.
 *
 * @param type   the frame's type, e.g. {@code DIFF}, {@code PROPOSAL}, {@code SNAPSHOT}
 * @param id     the frame's id in the protocol (ZooKeeper: the zxid), or -1
 * @param length the frame's length on the wire, in bytes
 * @param phase  the protocol phase the stream is in with this frame (ZooKeeper: {@code discovery}, {@code sync},
 *               {@code broadcast}), or empty
 */
public record Frame(String type, long id, long length, String phase) {

    public Frame {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(phase, "phase");
    }
}
