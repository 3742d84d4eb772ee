package io.zkchaos.fle.client;

import io.zkchaos.fle.Bug;
import io.zkchaos.fle.election.ServerState;
import io.zkchaos.fle.wire.Wire;
import io.zkchaos.fle.zab.Txn;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The client port's binary protocol. A client connection starts with the magic {@code "FLC1"}; then requests and
 * answers are frames ({@link io.zkchaos.fle.wire.Frames}):
 * <pre>
 * request = id:long op:byte fields      GET key | PUT key value | CAS key expected value | SYNC_GET key
 *                                        | READ_LOG | STATUS
 * answer  = id:long result:byte body    OK: value (GET, SYNC_GET) | zxid:long (PUT, CAS) | n:int (zxid txn)*n
 *                                        (READ_LOG) | status (STATUS);  REJECTED, INDETERMINATE: reason
 * status  = myId:long state:int serving:bool leader:long currentEpoch:long acceptedEpoch:long lastZxid:long
 *           committedZxid:long round:long n:int (bug-flag:string count:long)*n
 * </pre>
 * A connection whose first four bytes are a four-letter word ({@code srvr}, {@code stat}, {@code ruok}) gets a text
 * answer instead and is closed, as ZooKeeper's client port does.
 */
public final class ClientProtocol {

    /** "FLC1". */
    public static final int MAGIC = 0x464C4331;

    public static final byte GET = 1;
    public static final byte PUT = 2;
    public static final byte CAS = 3;
    public static final byte SYNC_GET = 4;
    public static final byte READ_LOG = 5;
    public static final byte STATUS = 6;

    public static final byte OK = 0;
    public static final byte REJECTED = 1;
    public static final byte INDETERMINATE = 2;

    private ClientProtocol() {
    }

    public static void writeStatus(DataOutputStream out, NodeStatus s) throws IOException {
        out.writeLong(s.myId());
        out.writeInt(s.state().code());
        out.writeBoolean(s.serving());
        out.writeLong(s.leader());
        out.writeLong(s.currentEpoch());
        out.writeLong(s.acceptedEpoch());
        out.writeLong(s.lastZxid());
        out.writeLong(s.committedZxid());
        out.writeLong(s.round());
        out.writeInt(s.bugPaths().size());
        for (Map.Entry<Bug, Long> e : s.bugPaths().entrySet()) {
            Wire.writeString(out, e.getKey().flag());
            out.writeLong(e.getValue());
        }
    }

    public static NodeStatus readStatus(DataInputStream in) throws IOException {
        long myId = in.readLong();
        ServerState state = ServerState.ofCode(in.readInt());
        boolean serving = in.readBoolean();
        long leader = in.readLong();
        long currentEpoch = in.readLong();
        long acceptedEpoch = in.readLong();
        long lastZxid = in.readLong();
        long committedZxid = in.readLong();
        long round = in.readLong();
        int n = in.readInt();
        if (n < 0 || n > Bug.values().length) {
            throw new IOException("bad number of bug flags " + n);
        }
        Map<Bug, Long> bugPaths = new EnumMap<>(Bug.class);
        for (int i = 0; i < n; i++) {
            String flag = Wire.readString(in);
            try {
                bugPaths.put(Bug.parse(flag), in.readLong());
            } catch (IllegalArgumentException e) {
                throw new IOException(e.getMessage(), e);
            }
        }
        return new NodeStatus(myId, state, serving, leader, currentEpoch, acceptedEpoch, lastZxid, committedZxid,
                round, bugPaths);
    }

    public static void writeLog(DataOutputStream out, List<LogEntry> log) throws IOException {
        out.writeInt(log.size());
        for (LogEntry e : log) {
            out.writeLong(e.zxid());
            Wire.writeTxn(out, e.txn());
        }
    }

    public static List<LogEntry> readLog(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0) {
            throw new IOException("bad log size " + n);
        }
        List<LogEntry> log = new ArrayList<>(Math.min(n, 1 << 16));
        for (int i = 0; i < n; i++) {
            long zxid = in.readLong();
            Txn t = Wire.readTxn(in);
            log.add(new LogEntry(zxid, t));
        }
        return log;
    }
}
