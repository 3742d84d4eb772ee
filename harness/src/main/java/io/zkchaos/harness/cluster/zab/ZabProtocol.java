package io.zkchaos.harness.cluster.zab;

import io.zkchaos.nemesis.frame.FrameDecoder;
import io.zkchaos.nemesis.frame.FrameMoment;
import io.zkchaos.nemesis.frame.FrameProtocol;
import io.zkchaos.nemesis.net.Stream;
import java.util.List;
import java.util.Set;

/**
 * ZooKeeper's quorum protocol (Zab, on the quorum port) as the fault proxy follows it: the quorum links
 * ({@code n1-n2-quorum}) carry it, {@link ZabDecoder} names its packets, and a follower's sync with its leader offers
 * these moments to protocol-aware faults:
 * <ul>
 *   <li>{@code sync-start}: the {@code DIFF}, {@code TRUNC} or {@code SNAP} packet that opens the sync;</li>
 *   <li>{@code snapshot}: the snapshot streamed after a {@code SNAP} (a long frame: faults may act after N bytes);</li>
 *   <li>{@code sync-proposal}, {@code sync-commit}: a {@code PROPOSAL} or {@code COMMIT} the leader sends as part of
 *       the sync (the follower's missing transactions);</li>
 *   <li>{@code newleader}: the leader's {@code NEWLEADER};</li>
 *   <li>{@code newleader-ack}: the follower's {@code ACK} of it (upstream, the follower is the sender);</li>
 *   <li>{@code uptodate}: the {@code UPTODATE} that ends the sync.</li>
 * </ul>
 * The framing is the same from 3.4 to 3.9 (checked in the sources of every minor line: {@code QuorumPacket}'s jute
 * serialization, and after {@code SNAP} the {@code SerializeUtils.serializeSnapshot} stream and the
 * {@code "BenWasHere"} signature); only the order of the sync packets differs (3.4 writes {@code DIFF}/{@code TRUNC}
 * before the queued proposals and {@code NEWLEADER}, 3.5+ queues {@code DIFF}/{@code TRUNC} with them), which the
 * decoder does not depend on.
 */
public final class ZabProtocol implements FrameProtocol {

    /** The frame type of the snapshot body that follows a {@code SNAP} packet. */
    public static final String SNAPSHOT = "SNAPSHOT";

    private static final List<FrameMoment> MOMENTS = List.of(
            new FrameMoment("sync-start", Set.of("DIFF", "TRUNC", "SNAP"), ZabDecoder.SYNC, false),
            new FrameMoment("snapshot", Set.of(SNAPSHOT), ZabDecoder.SYNC, true),
            new FrameMoment("sync-proposal", Set.of("PROPOSAL"), ZabDecoder.SYNC, false),
            new FrameMoment("sync-commit", Set.of("COMMIT"), ZabDecoder.SYNC, false),
            new FrameMoment("newleader", Set.of("NEWLEADER"), ZabDecoder.SYNC, false),
            new FrameMoment("newleader-ack", Set.of("ACK"), ZabDecoder.SYNC, false),
            new FrameMoment("uptodate", Set.of("UPTODATE"), ZabDecoder.SYNC, false));

    @Override
    public String name() {
        return "zab";
    }

    @Override
    public boolean carries(String linkName) {
        return linkName.endsWith("-quorum");
    }

    @Override
    public FrameDecoder newDecoder(Stream stream) {
        return new ZabDecoder(stream);
    }

    @Override
    public List<FrameMoment> syncMoments() {
        return MOMENTS;
    }
}
