package io.zkchaos.workloads.set;

import io.zkchaos.checkers.gen.Gen;
import io.zkchaos.checkers.gen.Gens;
import io.zkchaos.checkers.history.HistoryRecorder;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.workloads.Client;
import io.zkchaos.workloads.ClientWorkload;
import io.zkchaos.workloads.Invocation;
import io.zkchaos.workloads.Outcomes;
import io.zkchaos.workloads.Result;
import io.zkchaos.workloads.Sessions;
import io.zkchaos.workloads.Target;
import io.zkchaos.workloads.Znodes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;

/**
 * {@code set}: each {@code add e} creates the persistent znode {@code ROOT/e-<e>} (e unique, from a counter).
 * ok: the create returned; fail: NodeExists (the create certainly did not happen); info: anything unknown.
 *
 * <p>Final phase: for every server, one process opens a session to that server alone and records {@code read} with
 * ok value {@code {"node": "n1", "values": [sorted elements]}} ({@code sync()} first when {@code syncFinalReads}, so
 * a server that is only behind catches up and a server that really lost a commit still shows it; without sync the
 * read is the server's state as it is).
 */
public final class SetWorkload extends ClientWorkload {

    static final String PREFIX = "e-";

    private final String root;
    private final boolean syncFinalReads;

    public SetWorkload(String root, boolean syncFinalReads) {
        this.root = Objects.requireNonNull(root, "root");
        this.syncFinalReads = syncFinalReads;
    }

    @Override
    public String name() {
        return "set";
    }

    @Override
    public void setup(Target target) throws Exception {
        ZooKeeper zk = Sessions.open(target.connectString(), target, null);
        try {
            Znodes.deleteRecursive(zk, root);
            Znodes.ensurePath(zk, root, target.acls().forSetup());
        } finally {
            Sessions.closeQuietly(zk);
        }
    }

    /** {@code add 1}, {@code add 2}, ...: unique elements in order. */
    @Override
    public Gen<Invocation> generator() {
        return Gens.from(() -> {
            long[] next = {0};
            return random -> new Invocation("add", null, ++next[0]);
        });
    }

    @Override
    protected Client open(int process, Target target) throws Exception {
        ZooKeeper zk = Sessions.openClient(target.connectString(), target, null);
        List<ACL> acl = target.acls().forClient(zk);
        return new Client() {
            @Override
            public Result invoke(Invocation op) {
                if (!op.f().equals("add")) {
                    return Result.fail("unknown function " + op.f());
                }
                long e = (Long) op.value();
                try {
                    zk.create(root + "/" + PREFIX + e, new byte[0], acl, CreateMode.PERSISTENT);
                    return Result.ok(e);
                } catch (KeeperException.NodeExistsException ex) {
                    return Result.fail("node-exists");
                } catch (KeeperException | InterruptedException ex) {
                    return Outcomes.indeterminate(ex);
                }
            }

            @Override
            public void close() {
                Sessions.closeQuietly(zk);
            }
        };
    }

    /**
     * One read per server, each by its own new process (numbers from {@code firstProcess}), in the target's server
     * order. A server that cannot be reached gives an info read; the others are still read.
     */
    public void finalReads(Target target, HistoryRecorder recorder, int firstProcess) throws InterruptedException {
        int process = firstProcess;
        for (Map.Entry<String, String> server : target.servers().entrySet()) {
            Op invoke = recorder.invoke(process++, "read", null, null);
            ZooKeeper zk = null;
            try {
                zk = Sessions.open(server.getValue(), target, null);
                if (syncFinalReads) {
                    zk.sync(root);
                }
                List<Long> values = new ArrayList<>();
                for (String child : zk.getChildren(root, false)) {
                    if (child.startsWith(PREFIX)) {
                        values.add(Long.parseLong(child.substring(PREFIX.length())));
                    }
                }
                values.sort(null);
                Map<String, Object> value = new LinkedHashMap<>();
                value.put("node", server.getKey());
                value.put("values", values);
                recorder.complete(invoke, io.zkchaos.checkers.history.OpType.OK, value, null);
            } catch (InterruptedException e) {
                recorder.complete(invoke, io.zkchaos.checkers.history.OpType.INFO, null, "interrupted");
                throw e;
            } catch (Exception e) {
                Result r = Outcomes.indeterminate(e);
                recorder.complete(invoke, r.type(), null, "server " + server.getKey() + ": " + r.error());
            } finally {
                Sessions.closeQuietly(zk);
            }
        }
    }

    @Override
    public void finalPhase(Target target, HistoryRecorder recorder) throws InterruptedException {
        finalReads(target, recorder, FINAL_PROCESS_BASE);
    }

    /** Final reads use process numbers from here up, far above any client process. */
    public static final int FINAL_PROCESS_BASE = 1_000_000;

    @Override
    public void teardown(Target target) {
        // Elements are left for inspection; setup clears them at the next run.
    }
}
