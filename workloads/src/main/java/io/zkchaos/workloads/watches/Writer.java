package io.zkchaos.workloads.watches;

import io.zkchaos.checkers.history.HistoryRecorder;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.workloads.Invocation;
import io.zkchaos.workloads.Outcomes;
import io.zkchaos.workloads.Sessions;
import io.zkchaos.workloads.Target;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * One writer slot: creates, sets and deletes the watched znodes, each change recorded with the zxid of its
 * transaction, whatever the server release.
 *
 * <p><b>The clock.</b> ZooKeeper returns no zxid for a delete (nor for a create before 3.5), so each change is a
 * {@code multi} of the change and a versioned {@code setData} of the slot's own <em>clock</em> znode (outside the
 * watched tree) to the change's id: the clock's new mzxid is the transaction's zxid. A multi is one transaction,
 * and its operations fire the same watches as they would alone.
 *
 * <p><b>Changes that ended info.</b> Every change expects the clock's version the slot last knew, so at most one of
 * the changes in doubt can ever land, and none after the clock moves on. Before its next change the slot's new
 * process settles them ({@code resolve}): after a {@code sync}, the clock names the one that landed (and its zxid);
 * if it names none, a versioned write of a fence id to the clock makes sure none ever will.
 */
final class Writer {

    private final int slot;
    private final String clock;
    private final HistoryRecorder recorder;
    private final Target target;
    private final List<String> pending = new ArrayList<>(); // ids whose changes may or may not have landed
    private long clockVersion = -1; // the version every next change expects; -1: read it first
    private int seq;
    private ZooKeeper zk;
    private int process;

    Writer(int slot, String clock, HistoryRecorder recorder, Target target) {
        this.slot = slot;
        this.clock = clock;
        this.recorder = recorder;
        this.target = target;
    }

    /** Opens a session for {@code process}; throws if it cannot connect in time. */
    void open(int process) throws Exception {
        this.zk = Sessions.openClient(target.connectString(), target, Sessions.IGNORE);
        this.process = process;
    }

    boolean isOpen() {
        return zk != null;
    }

    void close() {
        Sessions.closeQuietly(zk);
        zk = null;
    }

    /**
     * Makes {@code op} ({@code create}, {@code set} or {@code delete} on its key) and records it, settling what
     * earlier processes left in doubt first. Returns whether the process must retire.
     */
    boolean change(Invocation op) throws InterruptedException {
        if (!ready()) {
            return true;
        }
        String id = "w" + slot + "-" + seq++;
        byte[] data = id.getBytes(StandardCharsets.UTF_8);
        Op invoke = recorder.invoke(process, op.f(), op.key(), Map.of("id", id));
        org.apache.zookeeper.Op change = switch (op.f()) {
            case "create" -> org.apache.zookeeper.Op.create(op.key(), data, target.acls().forClient(zk),
                    CreateMode.PERSISTENT);
            case "set" -> org.apache.zookeeper.Op.setData(op.key(), data, -1);
            case "delete" -> org.apache.zookeeper.Op.delete(op.key(), -1);
            default -> throw new IllegalArgumentException("a writer has no change " + op.f());
        };
        try {
            List<OpResult> results = zk.multi(List.of(change,
                    org.apache.zookeeper.Op.setData(clock, data, (int) clockVersion)));
            Stat clockStat = ((OpResult.SetDataResult) results.get(1)).getStat();
            clockVersion = clockStat.getVersion();
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("zxid", clockStat.getMzxid());
            if (results.get(0) instanceof OpResult.SetDataResult set) {
                v.put("version", (long) set.getStat().getVersion());
            }
            recorder.complete(invoke, OpType.OK, v, null);
            return false;
        } catch (KeeperException e) {
            if (e.getResults() != null && !e.getResults().isEmpty()) {
                // The server ran the multi and it failed as a whole: nothing changed.
                if (e.code() == Code.BADVERSION) {
                    clockVersion = -1; // not expected (the slot settles its doubts first): read the clock again
                }
                recorder.complete(invoke, OpType.FAIL, null, failure(e.code()));
                return false;
            }
            pending.add(id);
            recorder.complete(invoke, OpType.INFO, null, Outcomes.describe(e));
            return true;
        } catch (InterruptedException e) {
            pending.add(id);
            recorder.complete(invoke, OpType.INFO, null, "interrupted");
            throw e;
        } catch (RuntimeException e) {
            pending.add(id);
            recorder.complete(invoke, OpType.INFO, null, Outcomes.describe(e));
            return true;
        }
    }

    private static String failure(Code code) {
        return switch (code) {
            case NONODE -> "no-node";
            case NODEEXISTS -> "node-exists";
            case BADVERSION -> "clock-moved";
            default -> code.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        };
    }

    /** The clock is known and nothing is in doubt; false when the process must retire. */
    private boolean ready() throws InterruptedException {
        if (!pending.isEmpty()) {
            return resolve();
        }
        if (clockVersion >= 0) {
            return true;
        }
        // The clock is the slot's own and outside the watched tree: reading or creating it is not recorded.
        try {
            zk.sync(clock);
            Stat st = new Stat();
            try {
                zk.getData(clock, false, st);
                clockVersion = st.getVersion();
            } catch (KeeperException.NoNodeException e) {
                zk.create(clock, "start".getBytes(StandardCharsets.UTF_8), target.acls().forClient(zk),
                        CreateMode.PERSISTENT);
                clockVersion = 0;
            }
            return true;
        } catch (KeeperException e) {
            return false; // a create that ended in doubt: the next process reads the clock again
        }
    }

    /** Settles the changes in doubt (a recorded {@code resolve}); false when the process must retire. */
    private boolean resolve() throws InterruptedException {
        Op invoke = recorder.invoke(process, "resolve", clock, Map.of("pending", List.copyOf(pending)));
        String fence = null;
        try {
            zk.sync(clock);
            Stat st = new Stat();
            String named = new String(zk.getData(clock, false, st), StandardCharsets.UTF_8);
            if (!pending.contains(named)) {
                if (st.getVersion() != clockVersion) {
                    throw new IllegalStateException("the clock " + clock + " is at version " + st.getVersion()
                            + " with " + named + ", none of the changes in doubt " + pending);
                }
                fence = "w" + slot + "-" + seq++ + "-fence";
                try {
                    Stat f = zk.setData(clock, fence.getBytes(StandardCharsets.UTF_8), (int) clockVersion);
                    clockVersion = f.getVersion();
                    pending.clear();
                    Map<String, Object> none = new LinkedHashMap<>();
                    none.put("landed", null);
                    none.put("zxid", null);
                    recorder.complete(invoke, OpType.OK, none, null);
                    return true;
                } catch (KeeperException.BadVersionException e) {
                    fence = null; // it certainly did not land
                    named = new String(zk.getData(clock, false, st), StandardCharsets.UTF_8); // one landed meanwhile
                    if (!pending.contains(named)) {
                        throw new IllegalStateException("the clock " + clock + " moved to " + named
                                + ", none of the changes in doubt " + pending);
                    }
                }
            }
            clockVersion = st.getVersion();
            pending.clear();
            recorder.complete(invoke, OpType.OK, Map.of("landed", named, "zxid", st.getMzxid()), null);
            return true;
        } catch (KeeperException | RuntimeException e) {
            if (fence != null) {
                pending.add(fence); // the fence itself may have landed
            }
            recorder.complete(invoke, OpType.INFO, null, Outcomes.describe(e));
            return false;
        } catch (InterruptedException e) {
            if (fence != null) {
                pending.add(fence);
            }
            recorder.complete(invoke, OpType.INFO, null, "interrupted");
            throw e;
        }
    }
}
