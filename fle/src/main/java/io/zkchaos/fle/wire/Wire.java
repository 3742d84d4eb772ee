package io.zkchaos.fle.wire;

import io.zkchaos.fle.election.Notification;
import io.zkchaos.fle.election.ServerState;
import io.zkchaos.fle.election.Vote;
import io.zkchaos.fle.zab.Entry;
import io.zkchaos.fle.zab.MessageKind;
import io.zkchaos.fle.zab.Origin;
import io.zkchaos.fle.zab.QuorumMessage;
import io.zkchaos.fle.zab.Txn;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The nodes' own binary encoding (big-endian, as {@link DataOutputStream} writes), shared by the election port, the
 * quorum port and the log file. Strings are a length (-1 for null) and UTF-8 bytes. Every message on a socket is a
 * frame: a 4-byte length, then the body ({@link Frames}).
 *
 * <pre>
 * notification  = state:int leader:long zxid:long electionEpoch:long peerEpoch:long          (36 bytes)
 * txn           = 1:byte key:str value:str | 2:byte key:str expected:str value:str | 3:byte key:str
 * origin        = sid:long incarnation:long request:long
 * entry         = zxid:long txn origin
 * quorum msg    = kind:byte fields (see {@link #writeMessage})
 * </pre>
 */
public final class Wire {

    /** The largest frame either side accepts (a SNAP of a long history is the largest message). */
    public static final int MAX_FRAME = 256 * 1024 * 1024;

    private Wire() {
    }

    public static void writeString(DataOutputStream out, String s) throws IOException {
        if (s == null) {
            out.writeInt(-1);
            return;
        }
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    public static String readString(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n == -1) {
            return null;
        }
        if (n < 0 || n > MAX_FRAME) {
            throw new IOException("bad string length " + n);
        }
        byte[] b = new byte[n];
        in.readFully(b);
        return new String(b, StandardCharsets.UTF_8);
    }

    // ---- election

    public static byte[] encode(Notification n) {
        return bytes(out -> {
            out.writeInt(n.state().code());
            out.writeLong(n.leader());
            out.writeLong(n.zxid());
            out.writeLong(n.electionEpoch());
            out.writeLong(n.peerEpoch());
        });
    }

    public static Notification decodeNotification(byte[] b) throws IOException {
        if (b.length != 36) {
            throw new IOException("a notification has 36 bytes, this one " + b.length);
        }
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(b));
        ServerState state = ServerState.ofCode(in.readInt());
        long leader = in.readLong();
        long zxid = in.readLong();
        long ee = in.readLong();
        long pe = in.readLong();
        return new Notification(new Vote(leader, zxid, ee, pe, state));
    }

    // ---- commands and entries

    public static void writeTxn(DataOutputStream out, Txn t) throws IOException {
        if (t instanceof Txn.Put p) {
            out.writeByte(1);
            writeString(out, p.key());
            writeString(out, p.value());
        } else if (t instanceof Txn.Cas c) {
            out.writeByte(2);
            writeString(out, c.key());
            writeString(out, c.expected());
            writeString(out, c.value());
        } else {
            out.writeByte(3);
            writeString(out, ((Txn.SyncRead) t).key());
        }
    }

    public static Txn readTxn(DataInputStream in) throws IOException {
        int type = in.readByte();
        return switch (type) {
            case 1 -> new Txn.Put(readString(in), readString(in));
            case 2 -> new Txn.Cas(readString(in), readString(in), readString(in));
            case 3 -> new Txn.SyncRead(readString(in));
            default -> throw new IOException("unknown command type " + type);
        };
    }

    public static void writeOrigin(DataOutputStream out, Origin o) throws IOException {
        out.writeLong(o.sid());
        out.writeLong(o.incarnation());
        out.writeLong(o.request());
    }

    public static Origin readOrigin(DataInputStream in) throws IOException {
        return new Origin(in.readLong(), in.readLong(), in.readLong());
    }

    public static void writeEntry(DataOutputStream out, Entry e) throws IOException {
        out.writeLong(e.zxid());
        writeTxn(out, e.txn());
        writeOrigin(out, e.origin());
    }

    public static Entry readEntry(DataInputStream in) throws IOException {
        long zxid = in.readLong();
        Txn t = readTxn(in);
        return new Entry(zxid, t, readOrigin(in));
    }

    public static byte[] encode(Entry e) {
        return bytes(out -> writeEntry(out, e));
    }

    public static Entry decodeEntry(byte[] b) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(b));
        Entry e = readEntry(in);
        if (in.available() != 0) {
            throw new IOException(in.available() + " trailing bytes after an entry");
        }
        return e;
    }

    // ---- quorum messages

    public static byte[] encode(QuorumMessage m) {
        return bytes(out -> writeMessage(out, m));
    }

    /** Writes the kind's code, then the message's fields in declaration order. */
    public static void writeMessage(DataOutputStream out, QuorumMessage m) throws IOException {
        out.writeByte(m.kind().ordinal());
        if (m instanceof QuorumMessage.FollowerInfo f) {
            out.writeLong(f.sid());
            out.writeLong(f.acceptedEpoch());
            out.writeBoolean(f.wantSnap());
        } else if (m instanceof QuorumMessage.LeaderInfo l) {
            out.writeLong(l.newEpoch());
        } else if (m instanceof QuorumMessage.AckEpoch a) {
            out.writeLong(a.currentEpoch());
            out.writeLong(a.lastZxid());
        } else if (m instanceof QuorumMessage.Diff d) {
            out.writeLong(d.afterZxid());
        } else if (m instanceof QuorumMessage.Trunc t) {
            out.writeLong(t.toZxid());
        } else if (m instanceof QuorumMessage.Snap s) {
            out.writeInt(s.history().size());
            for (Entry e : s.history()) {
                writeEntry(out, e);
            }
        } else if (m instanceof QuorumMessage.Proposal p) {
            writeEntry(out, p.entry());
        } else if (m instanceof QuorumMessage.Commit c) {
            out.writeLong(c.zxid());
        } else if (m instanceof QuorumMessage.NewLeader n) {
            out.writeLong(n.epoch());
            out.writeLong(n.lastZxid());
        } else if (m instanceof QuorumMessage.AckNewLeader a) {
            out.writeLong(a.epoch());
            out.writeLong(a.lastZxid());
        } else if (m instanceof QuorumMessage.Ack a) {
            out.writeLong(a.zxid());
        } else if (m instanceof QuorumMessage.UpToDate u) {
            out.writeLong(u.committedZxid());
        } else if (m instanceof QuorumMessage.Request r) {
            writeOrigin(out, r.origin());
            writeTxn(out, r.txn());
        } else if (!(m instanceof QuorumMessage.Ping)) {
            throw new IllegalArgumentException("cannot encode " + m);
        }
    }

    public static QuorumMessage decodeMessage(byte[] b) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(b));
        QuorumMessage m;
        try {
            m = readMessage(in);
        } catch (EOFException e) {
            throw new IOException("truncated quorum message of " + b.length + " bytes", e);
        }
        if (in.available() != 0) {
            throw new IOException(in.available() + " trailing bytes after " + m.kind());
        }
        return m;
    }

    private static QuorumMessage readMessage(DataInputStream in) throws IOException {
        MessageKind kind;
        try {
            kind = MessageKind.ofCode(in.readByte());
        } catch (IllegalArgumentException e) {
            throw new IOException(e.getMessage(), e);
        }
        return switch (kind) {
            case FOLLOWERINFO -> new QuorumMessage.FollowerInfo(in.readLong(), in.readLong(), in.readBoolean());
            case LEADERINFO -> new QuorumMessage.LeaderInfo(in.readLong());
            case ACKEPOCH -> new QuorumMessage.AckEpoch(in.readLong(), in.readLong());
            case DIFF -> new QuorumMessage.Diff(in.readLong());
            case TRUNC -> new QuorumMessage.Trunc(in.readLong());
            case SNAP -> {
                int n = in.readInt();
                if (n < 0) {
                    throw new IOException("bad SNAP size " + n);
                }
                List<Entry> es = new ArrayList<>(Math.min(n, 1 << 16));
                for (int i = 0; i < n; i++) {
                    es.add(readEntry(in));
                }
                yield new QuorumMessage.Snap(es);
            }
            case PROPOSAL -> new QuorumMessage.Proposal(readEntry(in));
            case COMMIT -> new QuorumMessage.Commit(in.readLong());
            case NEWLEADER -> new QuorumMessage.NewLeader(in.readLong(), in.readLong());
            case ACKNEWLEADER -> new QuorumMessage.AckNewLeader(in.readLong(), in.readLong());
            case ACK -> new QuorumMessage.Ack(in.readLong());
            case UPTODATE -> new QuorumMessage.UpToDate(in.readLong());
            case PING -> new QuorumMessage.Ping();
            case REQUEST -> new QuorumMessage.Request(readOrigin(in), readTxn(in));
            case NOTIFICATION -> throw new IOException("a notification on the quorum port");
        };
    }

    /** Writes through {@code body} into a fresh byte array. */
    public static byte[] bytes(Body body) {
        ByteArrayOutputStream b = new ByteArrayOutputStream(64);
        try (DataOutputStream out = new DataOutputStream(b)) {
            body.write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // cannot happen in memory
        }
        return b.toByteArray();
    }

    /** Something that writes itself to a stream. */
    @FunctionalInterface
    public interface Body {
        void write(DataOutputStream out) throws IOException;
    }
}
