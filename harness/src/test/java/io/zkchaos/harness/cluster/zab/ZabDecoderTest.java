package io.zkchaos.harness.cluster.zab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.nemesis.frame.Frame;
import io.zkchaos.nemesis.frame.FrameDecoder;
import io.zkchaos.nemesis.frame.FrameDecodingException;
import io.zkchaos.nemesis.net.Stream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.jute.BinaryOutputArchive;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.DataTree;
import org.apache.zookeeper.server.quorum.QuorumPacket;
import org.apache.zookeeper.server.util.SerializeUtils;
import org.junit.jupiter.api.Test;

/**
 * The decoder against bytes written by ZooKeeper's own serialization (its jute archive, QuorumPacket, DataTree and
 * SerializeUtils), fed whole, one byte at a time and in random splits: every packet and the snapshot are named at
 * the byte where they end, with their zxid and phase.
 */
class ZabDecoderTest {

    /** A stream written packet by packet, remembering where each frame ends. */
    static final class Wire {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final BinaryOutputArchive out = BinaryOutputArchive.getArchive(bytes);
        final List<String> expected = new ArrayList<>();

        Wire packet(int type, String name, long zxid, byte[] data, List<Id> auth, String phase) throws IOException {
            out.writeRecord(new QuorumPacket(type, zxid, data, auth), "packet");
            expected.add(name + " " + Long.toHexString(zxid) + " " + phase + " @" + bytes.size());
            return this;
        }

        Wire snapshot(long zxid, DataTree tree, Map<Long, Integer> sessions) throws IOException {
            int start = bytes.size();
            SerializeUtils.serializeSnapshot(tree, out, sessions);
            out.writeString("BenWasHere", "signature");
            expected.add("SNAPSHOT " + Long.toHexString(zxid) + " sync @" + bytes.size() + " len "
                    + (bytes.size() - start));
            return this;
        }
    }

    /** What the decoder reported, with offsets made absolute. */
    static final class Seen implements FrameDecoder.Listener {
        final List<String> frames = new ArrayList<>();
        long base;
        long bodyNext = -1;
        long bodyBytes;

        @Override
        public void frameEnded(Frame f, int end) {
            if (f.type().equals("SNAPSHOT")) {
                assertThat(bodyBytes).as("body bytes reported before the snapshot ended").isEqualTo(f.length());
                assertThat(bodyNext).isEqualTo(base + end);
            }
            frames.add(f.type() + " " + Long.toHexString(f.id()) + " " + f.phase() + " @" + (base + end)
                    + (f.type().equals("SNAPSHOT") ? " len " + f.length() : ""));
        }

        @Override
        public void inFrame(Frame f, long before, int from, int to) {
            // body pieces are contiguous and counted from 0
            assertThat(before).isEqualTo(bodyBytes);
            if (bodyNext >= 0) {
                assertThat(base + from).isEqualTo(bodyNext);
            }
            bodyBytes += to - from;
            bodyNext = base + to;
        }
    }

    private static List<String> decode(Stream stream, byte[] wire, Random splits) {
        ZabDecoder d = new ZabDecoder(stream);
        Seen seen = new Seen();
        int pos = 0;
        while (pos < wire.length) {
            int n = splits == null ? wire.length : 1 + splits.nextInt(Math.min(64, wire.length - pos));
            n = Math.min(n, wire.length - pos);
            // a buffer whose position is not 0, as the proxy's may be
            ByteBuffer b = ByteBuffer.allocate(n + 7);
            b.position(7);
            b.put(wire, pos, n);
            b.position(7);
            seen.base = pos;
            d.decode(b, seen);
            assertThat(b.position()).as("the decoder must not move the buffer").isEqualTo(7);
            pos += n;
        }
        return seen.frames;
    }

    private static DataTree tree() throws Exception {
        DataTree t = new DataTree();
        List<ACL> digest = List.of(new ACL(ZooDefs.Perms.ALL, new Id("digest", "user:hash")),
                new ACL(ZooDefs.Perms.READ, new Id("world", "anyone")));
        t.createNode("/app", "hello".getBytes(), ZooDefs.Ids.OPEN_ACL_UNSAFE, 0, 0, 0x100000001L, 1);
        t.createNode("/app/secret", new byte[3000], digest, 0, 0, 0x100000002L, 2);
        t.createNode("/app/empty", null, ZooDefs.Ids.OPEN_ACL_UNSAFE, 0x55L, 0, 0x100000003L, 3);
        t.createNode("/a", new byte[0], ZooDefs.Ids.READ_ACL_UNSAFE, 0, 0, 0x100000004L, 4);
        return t;
    }

    @Test
    void followsALeadersSnapSyncInEverySplit() throws Exception {
        Map<Long, Integer> sessions = new LinkedHashMap<>();
        sessions.put(0x55L, 4000);
        sessions.put(0x56L, 6000);
        Wire w = new Wire()
                .packet(17, "LEADERINFO", 0x200000000L, new byte[] {0, 1, 0, 0}, null, "discovery")
                .packet(15, "SNAP", 0x100000004L, null, null, "sync")
                .snapshot(0x100000004L, tree(), sessions)
                .packet(2, "PROPOSAL", 0x100000005L, new byte[200], null, "sync")
                .packet(4, "COMMIT", 0x100000005L, null, null, "sync")
                .packet(10, "NEWLEADER", 0x200000000L, new byte[] {1, 2, 3}, null, "sync")
                .packet(12, "UPTODATE", -1, null, null, "sync")
                .packet(5, "PING", 0x200000003L, new byte[] {9}, List.of(new Id("digest", "u:p"), new Id("ip", "")),
                        "broadcast")
                .packet(2, "PROPOSAL", 0x200000004L, new byte[10], List.of(), "broadcast");
        byte[] wire = w.bytes.toByteArray();
        assertThat(decode(Stream.DOWNSTREAM, wire, null)).containsExactlyElementsOf(w.expected);
        assertThat(decode(Stream.DOWNSTREAM, wire, new Random(1) {
            @Override
            public int nextInt(int bound) {
                return 0; // one byte at a time
            }
        })).containsExactlyElementsOf(w.expected);
        for (int seed = 0; seed < 50; seed++) {
            assertThat(decode(Stream.DOWNSTREAM, wire, new Random(seed))).as("split seed %d", seed)
                    .containsExactlyElementsOf(w.expected);
        }
    }

    @Test
    void followsADiffAndATruncSync() throws Exception {
        Wire diff = new Wire()
                .packet(17, "LEADERINFO", 0x300000000L, new byte[] {0, 1, 0, 0}, null, "discovery")
                .packet(13, "DIFF", 0x200000007L, null, null, "sync")
                .packet(2, "PROPOSAL", 0x200000006L, new byte[40], null, "sync")
                .packet(4, "COMMIT", 0x200000006L, null, null, "sync")
                .packet(10, "NEWLEADER", 0x300000000L, null, null, "sync")
                .packet(12, "UPTODATE", -1, null, null, "sync")
                .packet(4, "COMMIT", 0x300000001L, null, null, "broadcast");
        assertThat(decode(Stream.DOWNSTREAM, diff.bytes.toByteArray(), new Random(3)))
                .containsExactlyElementsOf(diff.expected);
        Wire trunc = new Wire()
                .packet(14, "TRUNC", 0x200000005L, null, null, "sync")
                .packet(10, "NEWLEADER", 0x300000000L, null, null, "sync");
        assertThat(decode(Stream.DOWNSTREAM, trunc.bytes.toByteArray(), null)).containsExactlyElementsOf(trunc.expected);
    }

    @Test
    void followsTheLearnerSide() throws Exception {
        Wire up = new Wire()
                .packet(11, "FOLLOWERINFO", 0x200000007L, new byte[20], null, "discovery")
                .packet(18, "ACKEPOCH", 0x200000007L, new byte[] {0, 0, 0, 2}, null, "discovery")
                .packet(3, "ACK", 0x300000000L, null, null, "sync")
                .packet(3, "ACK", 0x300000000L, null, null, "broadcast")
                .packet(3, "ACK", 0x300000001L, null, null, "broadcast")
                .packet(5, "PING", 0x300000001L, new byte[16], null, "broadcast")
                .packet(1, "REQUEST", 0, new byte[64], null, "broadcast");
        assertThat(decode(Stream.UPSTREAM, up.bytes.toByteArray(), new Random(9)))
                .containsExactlyElementsOf(up.expected);
    }

    @Test
    void bytesThatAreNoQuorumPacketsAreNamedAsSuch() {
        byte[] http = "GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes();
        assertThatThrownBy(() -> decode(Stream.DOWNSTREAM, http, null))
                .isInstanceOf(FrameDecodingException.class)
                .hasMessageContaining("unknown quorum packet type").hasMessageContaining("at stream byte 0");
        ByteBuffer b = ByteBuffer.allocate(16);
        b.putInt(2).putLong(7).putInt(-5).flip();
        assertThatThrownBy(() -> new ZabDecoder(Stream.UPSTREAM).decode(b, (f, end) -> {
        })).isInstanceOf(FrameDecodingException.class).hasMessageContaining("implausible length -5 of packet data");
    }
}
