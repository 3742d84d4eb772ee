package io.zkchaos.harness.cluster.zab;

import io.zkchaos.nemesis.frame.Frame;
import io.zkchaos.nemesis.frame.FrameDecoder;
import io.zkchaos.nemesis.frame.FrameDecodingException;
import io.zkchaos.nemesis.net.Stream;
import java.nio.ByteBuffer;

/**
 * Follows one stream of a ZooKeeper quorum connection (learner to leader upstream, leader to learner downstream) and
 * names its packets, never changing a byte. A connection carries jute-serialized {@code QuorumPacket}s back to back,
 * without a length prefix:
 * <pre>
 * int type; long zxid; buffer data (int length, -1 = null, then the bytes);
 * vector&lt;Id&gt; authinfo (int count, -1 = null; each Id: ustring scheme, ustring id, each an int length and bytes)
 * </pre>
 * Downstream, a {@code SNAP} packet is followed by the leader's data tree, streamed raw
 * ({@code SerializeUtils.serializeSnapshot}): int session count, (long id, int timeout) each; the ACL cache (int
 * count; each: long key, vector&lt;ACL&gt; of int perms and an Id); then nodes (ustring path; buffer data, long acl,
 * a 60-byte StatPersisted) until the path {@code "/"}; then the ustring signature {@code "BenWasHere"}. The decoder
 * reports that stream as one long frame, {@link ZabProtocol#SNAPSHOT}, with its zxid the {@code SNAP}'s.
 *
 * <p>Phases: downstream {@code discovery} until the packet that opens the sync ({@code DIFF}, {@code TRUNC},
 * {@code SNAP}), {@code sync} through {@code UPTODATE}, then {@code broadcast}; upstream {@code discovery} through
 * {@code ACKEPOCH}, {@code sync} through the learner's {@code ACK} of {@code NEWLEADER} (the first {@code ACK} whose
 * zxid's counter is 0), then {@code broadcast}.
 *
 * <p>The parse is a state machine over fixed-size fields and skips, so it takes any split of the stream and keeps
 * nothing of a packet's body.
 */
final class ZabDecoder implements FrameDecoder {

    static final String DISCOVERY = "discovery";
    static final String SYNC = "sync";
    static final String BROADCAST = "broadcast";

    /** Packet type names by number (Leader.java, 3.4 to 3.9). */
    private static final String[] TYPES = {null, "REQUEST", "PROPOSAL", "ACK", "COMMIT", "PING", "REVALIDATE", "SYNC",
        "INFORM", "COMMITANDACTIVATE", "NEWLEADER", "FOLLOWERINFO", "UPTODATE", "DIFF", "TRUNC", "SNAP",
        "OBSERVERINFO", "LEADERINFO", "ACKEPOCH", "INFORMANDACTIVATE"};
    /** No single jute field is this long (jute.maxbuffer is far below it); longer means we lost the framing. */
    private static final long MAX_FIELD = 256L << 20;
    /** A data node's acl (long) and StatPersisted (4 longs, 3 ints, 2 longs) after its data. */
    private static final int NODE_TAIL = 8 + 60;

    private enum Step {
        PACKET_HEAD(12), DATA_LEN(4), AUTH_COUNT(4), AUTH_SCHEME_LEN(4), AUTH_ID_LEN(4),
        SESSION_COUNT(4), ACL_COUNT(4), ACL_ENTRY(12), ACL_PERMS(4), ACL_SCHEME_LEN(4), ACL_ID_LEN(4),
        PATH_LEN(4), PATH_BYTE(1), NODE_DATA_LEN(4), SIGNATURE_LEN(4);

        final int size;

        Step(int size) {
            this.size = size;
        }
    }

    private final Stream stream;
    private final byte[] field = new byte[16];
    private int have;
    private long skip;
    /** The step to take once {@link #skip} bytes are skipped. */
    private Step afterSkip;
    private Step step = Step.PACKET_HEAD;
    private String phase = DISCOVERY;
    private long offset;

    // the packet being read
    private int type;
    private long zxid;
    private long packetStart;
    private int authLeft;

    // the snapshot being read
    private boolean inSnapshot;
    private long snapshotZxid;
    private long snapshotStart;
    private long aclEntriesLeft;
    private long aclsLeft;

    ZabDecoder(Stream stream) {
        this.stream = stream;
    }

    @Override
    public void decode(ByteBuffer bytes, Listener listener) {
        int base = bytes.position();
        int limit = bytes.limit();
        int pos = base;
        // the part of this call's bytes that belongs to the snapshot, reported before each return
        int snapFrom = inSnapshot ? 0 : -1;
        while (pos < limit) {
            if (skip > 0) {
                int n = (int) Math.min(skip, limit - pos);
                skip -= n;
                pos += n;
                offset += n;
                if (skip == 0) {
                    step = afterSkip;
                    if (step == null) {
                        afterSkip = null;
                        // a skip that ends a unit: a packet or the snapshot
                        snapFrom = unitEnded(listener, pos - base, snapFrom);
                    }
                }
                continue;
            }
            int n = Math.min(step.size - have, limit - pos);
            bytes.get(pos, field, have, n);
            have += n;
            pos += n;
            offset += n;
            if (have < step.size) {
                break;
            }
            have = 0;
            if (field(step)) {
                // the unit (packet or snapshot) ended with this field
                snapFrom = unitEnded(listener, pos - base, snapFrom);
            }
        }
        if (inSnapshot && snapFrom >= 0 && pos - base > snapFrom) {
            long len = offset - snapshotStart;
            listener.inFrame(new Frame(ZabProtocol.SNAPSHOT, snapshotZxid, -1, SYNC), len - (pos - base - snapFrom),
                    snapFrom, pos - base);
        }
    }

    /**
     * Handles a complete field. Returns true when it ends a unit (a packet, or the snapshot) with no skip pending.
     * Sets {@link #step} (or a skip with {@link #afterSkip}) for what follows.
     */
    private boolean field(Step done) {
        ByteBuffer f = ByteBuffer.wrap(field);
        switch (done) {
            case PACKET_HEAD -> {
                packetStart = offset - 12;
                type = f.getInt(0);
                zxid = f.getLong(4);
                if (type < 1 || type >= TYPES.length) {
                    throw new FrameDecodingException("unknown quorum packet type " + type + " at stream byte "
                            + packetStart);
                }
                step = Step.DATA_LEN;
            }
            case DATA_LEN -> skipThen(length(f.getInt(0), "packet data"), Step.AUTH_COUNT);
            case AUTH_COUNT -> {
                authLeft = count(f.getInt(0), "authinfo");
                if (authLeft == 0) {
                    return true;
                }
                step = Step.AUTH_SCHEME_LEN;
            }
            case AUTH_SCHEME_LEN -> skipThen(length(f.getInt(0), "auth scheme"), Step.AUTH_ID_LEN);
            case AUTH_ID_LEN -> {
                authLeft--;
                long len = length(f.getInt(0), "auth id");
                if (authLeft == 0) {
                    if (len == 0) {
                        return true;
                    }
                    skipThen(len, null);
                } else {
                    skipThen(len, Step.AUTH_SCHEME_LEN);
                }
            }
            case SESSION_COUNT -> skipThen(12L * count(f.getInt(0), "sessions"), Step.ACL_COUNT);
            case ACL_COUNT -> {
                aclEntriesLeft = count(f.getInt(0), "acl cache");
                step = aclEntriesLeft == 0 ? Step.PATH_LEN : Step.ACL_ENTRY;
            }
            case ACL_ENTRY -> {
                aclsLeft = count(f.getInt(8), "acl list");
                step = aclsLeft == 0 ? nextAclEntry() : Step.ACL_PERMS;
            }
            case ACL_PERMS -> step = Step.ACL_SCHEME_LEN;
            case ACL_SCHEME_LEN -> skipThen(length(f.getInt(0), "acl scheme"), Step.ACL_ID_LEN);
            case ACL_ID_LEN -> {
                aclsLeft--;
                skipThen(length(f.getInt(0), "acl id"), aclsLeft == 0 ? nextAclEntry() : Step.ACL_PERMS);
            }
            case PATH_LEN -> {
                int len = f.getInt(0);
                if (len == 1) {
                    step = Step.PATH_BYTE; // "/" marks the end of the nodes
                } else {
                    skipThen(length(len, "node path"), Step.NODE_DATA_LEN);
                }
            }
            case PATH_BYTE -> {
                if (field[0] == '/') {
                    step = Step.SIGNATURE_LEN;
                } else {
                    step = Step.NODE_DATA_LEN;
                }
            }
            case NODE_DATA_LEN -> skipThen(length(f.getInt(0), "node data") + NODE_TAIL, Step.PATH_LEN);
            case SIGNATURE_LEN -> {
                long len = length(f.getInt(0), "signature");
                if (len == 0) {
                    return true;
                }
                skipThen(len, null);
            }
            default -> throw new IllegalStateException("step " + done);
        }
        return false;
    }

    private Step nextAclEntry() {
        aclEntriesLeft--;
        return aclEntriesLeft == 0 ? Step.PATH_LEN : Step.ACL_ENTRY;
    }

    private void skipThen(long n, Step then) {
        if (n == 0) {
            if (then == null) {
                throw new IllegalStateException("an empty skip cannot end a unit");
            }
            step = then;
            return;
        }
        skip = n;
        afterSkip = then;
        step = null;
    }

    /**
     * A packet, or the snapshot, ended at {@code end} (relative to this call's buffer): reports it, moves the phase,
     * and starts the snapshot after a {@code SNAP}. Returns where this call's snapshot bytes begin now (-1: none).
     */
    private int unitEnded(Listener listener, int end, int snapFrom) {
        if (inSnapshot) {
            long len = offset - snapshotStart;
            if (snapFrom >= 0 && end > snapFrom) {
                listener.inFrame(new Frame(ZabProtocol.SNAPSHOT, snapshotZxid, -1, SYNC), len - (end - snapFrom),
                        snapFrom, end);
            }
            inSnapshot = false;
            step = Step.PACKET_HEAD;
            listener.frameEnded(new Frame(ZabProtocol.SNAPSHOT, snapshotZxid, len, SYNC), end);
            return -1;
        }
        String name = TYPES[type];
        String framePhase = phaseOf(name);
        step = Step.PACKET_HEAD;
        if (name.equals("SNAP") && stream == Stream.DOWNSTREAM) {
            inSnapshot = true;
            snapshotZxid = zxid;
            snapshotStart = offset;
            step = Step.SESSION_COUNT;
        }
        listener.frameEnded(new Frame(name, zxid, offset - packetStart, framePhase), end);
        return inSnapshot ? end : -1;
    }

    /** The phase this packet belongs to; moves the stream's phase on. */
    private String phaseOf(String name) {
        if (stream == Stream.DOWNSTREAM) {
            switch (name) {
                case "DIFF", "TRUNC", "SNAP" -> phase = SYNC;
                case "UPTODATE" -> {
                    phase = BROADCAST;
                    return SYNC;
                }
                default -> {
                }
            }
            return phase;
        }
        switch (name) {
            case "ACKEPOCH" -> {
                phase = SYNC;
                return DISCOVERY;
            }
            case "ACK" -> {
                if (phase.equals(SYNC) && (zxid & 0xffffffffL) == 0) {
                    phase = BROADCAST;
                    return SYNC;
                }
            }
            default -> {
            }
        }
        return phase;
    }

    private long length(int n, String what) {
        if (n < -1 || n > MAX_FIELD) {
            throw new FrameDecodingException("implausible length " + n + " of " + what + " at stream byte "
                    + (offset - 4));
        }
        return Math.max(n, 0);
    }

    private int count(int n, String what) {
        if (n < -1 || n > MAX_FIELD) {
            throw new FrameDecodingException("implausible count " + n + " of " + what + " at stream byte "
                    + (offset - 4));
        }
        return Math.max(n, 0);
    }
}
