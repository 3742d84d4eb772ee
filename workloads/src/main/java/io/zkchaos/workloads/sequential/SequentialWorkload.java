package io.zkchaos.workloads.sequential;

import io.zkchaos.checkers.gen.Gen;
import io.zkchaos.checkers.gen.Gens;
import io.zkchaos.checkers.history.HistoryRecorder;
import io.zkchaos.workloads.Client;
import io.zkchaos.workloads.ClientWorkload;
import io.zkchaos.workloads.Invocation;
import io.zkchaos.workloads.Outcomes;
import io.zkchaos.workloads.Result;
import io.zkchaos.workloads.ServerReads;
import io.zkchaos.workloads.Sessions;
import io.zkchaos.workloads.Target;
import io.zkchaos.workloads.Znodes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;

/**
 * {@code sequential}: concurrent creates of sequential and ephemeral-sequential children under a few parents
 * ({@code ROOT/p0 .. p(K-1)}), synced reads of the children, and a final read of every parent on every server.
 *
 * <p>History: {@code create} (key: the parent) with {@code {"value": v, "mode": "persistent" | "ephemeral"}}, v unique
 * in the run; the child is created as {@code v<v>-} and ZooKeeper appends its ten-digit sequence number, so every
 * child names the create that made it (as Curator's protected mode names a candidate). ok adds the {@code "name"}
 * ZooKeeper returned and its {@code "seq"}; fail: NodeExists or NoNode (nothing was created); info: unknown (a
 * connection loss may hide a create that happened). {@code read} (key: the parent) syncs, then lists:
 * {@code {"children": {"p0": [names]}}}. The final phase reads every parent through a session to each server alone
 * ({@code {"node": "n1", "children": {...}}}, processes from {@link #FINAL_PROCESS_BASE}).
 *
 * <p>{@link #withMadeUpNames()} is a deliberately broken client, there to prove the checker: it reports a name it
 * made up from a counter of its own (as if it could predict the sequence number) instead of the one ZooKeeper
 * returned.
 */
public final class SequentialWorkload extends ClientWorkload {

    /** Final reads use process numbers from here up, far above any client process. */
    public static final int FINAL_PROCESS_BASE = 1_000_000;

    private final String root;
    private final int parents;
    private final boolean madeUpNames;

    /**
     * @param root    where the parents live
     * @param parents how many parents (at least 1)
     */
    public SequentialWorkload(String root, int parents) {
        this(root, parents, false);
    }

    private SequentialWorkload(String root, int parents, boolean madeUpNames) {
        this.root = Objects.requireNonNull(root, "root");
        if (parents < 1) {
            throw new IllegalArgumentException("parents must be at least 1, got " + parents);
        }
        this.parents = parents;
        this.madeUpNames = madeUpNames;
    }

    /** The same workload with a broken client that reports names it made up (for proving the checker). */
    public SequentialWorkload withMadeUpNames() {
        return new SequentialWorkload(root, parents, true);
    }

    @Override
    public String name() {
        return "sequential";
    }

    public static String parent(int i) {
        return "p" + i;
    }

    @Override
    public void setup(Target target) throws Exception {
        Sessions.with(target, zk -> {
            Znodes.deleteRecursive(zk, root);
            for (int i = 0; i < parents; i++) {
                Znodes.ensurePath(zk, root + "/" + parent(i), target.acls().forSetup());
            }
        });
    }

    /** Creates (persistent 3 : ephemeral 1) and reads (1) on random parents; values from one counter. */
    @Override
    protected Gen<Invocation> generator() {
        return Gens.mix(() -> {
            long[] counter = {0};
            return List.of(
                    new Gens.Weighted<>(3, r -> create(parent(r.nextInt(parents)), ++counter[0], "persistent")),
                    new Gens.Weighted<>(1, r -> create(parent(r.nextInt(parents)), ++counter[0], "ephemeral")),
                    new Gens.Weighted<>(1, r -> new Invocation("read", parent(r.nextInt(parents)), null)));
        });
    }

    private static Invocation create(String parent, long value, String mode) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("value", value);
        v.put("mode", mode);
        return new Invocation("create", parent, v);
    }

    @Override
    protected Client open(int process, Target target) throws Exception {
        ZooKeeper zk = Sessions.openClient(target.connectString(), target, null);
        List<ACL> acl = target.acls().forClient(zk);
        return new Client() {
            private final Map<String, Long> predicted = new HashMap<>();

            @Override
            public Result invoke(Invocation op) {
                String parentPath = root + "/" + op.key();
                try {
                    return switch (op.f()) {
                        case "create" -> create(zk, parentPath, op);
                        case "read" -> {
                            zk.sync(parentPath);
                            yield Result.ok(Map.of("children", Map.of(op.key(), sorted(zk.getChildren(parentPath,
                                    false)))));
                        }
                        default -> Result.fail("unknown function " + op.f());
                    };
                } catch (KeeperException | InterruptedException e) {
                    return Outcomes.indeterminate(e);
                }
            }

            private Result create(ZooKeeper zk, String parentPath, Invocation op)
                    throws KeeperException, InterruptedException {
                Map<?, ?> in = (Map<?, ?>) op.value();
                long value = (Long) in.get("value");
                boolean ephemeral = "ephemeral".equals(in.get("mode"));
                String created;
                try {
                    created = zk.create(parentPath + "/v" + value + "-", new byte[0], acl,
                            ephemeral ? CreateMode.EPHEMERAL_SEQUENTIAL : CreateMode.PERSISTENT_SEQUENTIAL);
                } catch (KeeperException.NodeExistsException | KeeperException.NoNodeException e) {
                    return Result.fail(Outcomes.describe(e)); // the server refused it: nothing was created
                }
                String name = created.substring(created.lastIndexOf('/') + 1);
                if (madeUpNames) {
                    long seq = predicted.merge(op.key(), 1L, Long::sum) - 1;
                    name = "v" + value + "-" + String.format(Locale.ROOT, "%010d", seq);
                }
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("value", value);
                out.put("mode", ephemeral ? "ephemeral" : "persistent");
                out.put("name", name);
                out.put("seq", Long.parseLong(name.substring(name.length() - 10)));
                return Result.ok(out);
            }

            @Override
            public void close() {
                Sessions.closeQuietly(zk);
            }
        };
    }

    private static List<String> sorted(List<String> names) {
        List<String> l = new ArrayList<>(names);
        l.sort(null);
        return l;
    }

    /** Every parent's children, read from every server alone after {@code sync}. */
    @Override
    public void finalPhase(Target target, HistoryRecorder recorder) throws InterruptedException {
        ServerReads.eachServer(target, recorder, FINAL_PROCESS_BASE, "read", zk -> {
            Map<String, Object> children = new LinkedHashMap<>();
            for (int i = 0; i < parents; i++) {
                String path = root + "/" + parent(i);
                zk.sync(path);
                children.put(parent(i), sorted(zk.getChildren(path, false)));
            }
            return Map.of("children", children);
        });
    }

    @Override
    public void teardown(Target target) {
        // Children are left for inspection; setup clears them at the next run.
    }
}
