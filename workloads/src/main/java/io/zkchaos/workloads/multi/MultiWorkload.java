package io.zkchaos.workloads.multi;

import io.zkchaos.checkers.gen.Gen;
import io.zkchaos.checkers.gen.Gens;
import io.zkchaos.workloads.Client;
import io.zkchaos.workloads.ClientWorkload;
import io.zkchaos.workloads.Invocation;
import io.zkchaos.workloads.Outcomes;
import io.zkchaos.workloads.Result;
import io.zkchaos.workloads.Sessions;
import io.zkchaos.workloads.Target;
import io.zkchaos.workloads.Znodes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SplittableRandom;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code multi}: transactions of {@code check} + {@code setData} / {@code create} / {@code delete} over several znodes
 * in one {@code multi()}, and synced reads of several znodes at once.
 *
 * <p>Znodes: <em>registers</em> {@code ROOT/r0 .. r(K-1)}, created by setup holding 0 and never deleted, which
 * transactions check and set; <em>nodes</em> {@code ROOT/e0 .. e(K-1)}, absent at the start, which transactions
 * create and delete. Every set and create writes a value unique in the run. History: {@code txn} (no key) with a list
 * of {@code [op key value]}: {@code check} (its value null when invoked; when ok, the value the checked version
 * held), {@code set}, {@code create}, {@code delete} (value null). A check is honest about versions as the register's
 * cas is: the client syncs and reads the register's value and version first, and the transaction checks that version
 * (a register is never re-created, so a version names one value). ok: the transaction happened; fail: the servers
 * rejected it as a whole (BadVersion, NodeExists, NoNode, an error naming the failed op), or a read before it failed,
 * so it was never sent; info: unknown.
 *
 * <p>{@code read} (no key) syncs, then reads every znode in one read-only {@code multi} of {@code getData} (ZooKeeper
 * 3.6+): ok value {@code [[read key value] ...]}, null for a znode that does not exist. Releases before 3.6 have no
 * read-only multi: there each read reads one random znode with {@code getData}, and the workload says so in a warning
 * at setup ({@link #readsAtOnce()} tells which).
 *
 * <p>{@link #split()} is a deliberately broken client, there to prove the checker: it runs a transaction's operations
 * as separate calls, so a failure halfway leaves the first ones done, and a read can land between them.
 */
public final class MultiWorkload extends ClientWorkload {

    private static final Logger LOG = LoggerFactory.getLogger(MultiWorkload.class);

    private final String root;
    private final int keys;
    private final boolean split;
    private volatile Boolean readsAtOnce;

    /**
     * @param root where the znodes live
     * @param keys how many registers, and how many nodes (at least 1)
     */
    public MultiWorkload(String root, int keys) {
        this(root, keys, false);
    }

    private MultiWorkload(String root, int keys, boolean split) {
        this.root = Objects.requireNonNull(root, "root");
        if (keys < 1) {
            throw new IllegalArgumentException("keys must be at least 1, got " + keys);
        }
        this.keys = keys;
        this.split = split;
    }

    /** The same workload with a broken client that splits each transaction into separate calls. */
    public MultiWorkload split() {
        return new MultiWorkload(root, keys, true);
    }

    @Override
    public String name() {
        return "multi";
    }

    static String register(int i) {
        return "r" + i;
    }

    static String node(int i) {
        return "e" + i;
    }

    private String path(String key) {
        return root + "/" + key;
    }

    /**
     * Creates the registers (holding 0) and removes everything else; asks the servers their release, to know whether
     * reads can read every znode in one read-only multi (3.6+).
     */
    @Override
    public void setup(Target target) throws Exception {
        Sessions.with(target, zk -> {
            Znodes.deleteRecursive(zk, root);
            Znodes.ensurePath(zk, root, target.acls().forSetup());
            for (int i = 0; i < keys; i++) {
                zk.create(path(register(i)), Znodes.encode(0), target.acls().forSetup(), CreateMode.PERSISTENT);
            }
        });
        List<String> unanswered = new ArrayList<>();
        Optional<ServerVersions.Release> oldest = ServerVersions.oldest(target, unanswered);
        readsAtOnce = oldest.map(r -> r.atLeast(3, 6, 0)).orElse(false);
        if (!readsAtOnce) {
            LOG.warn("multi: {}: no read-only multi before ZooKeeper 3.6, so each read reads one znode alone "
                    + "(getData); transactions are still one multi each", oldest.map(r -> "the oldest server ("
                    + r.server() + ") runs " + r).orElse("no server said its release (" + String.join("; ",
                    unanswered) + ")"));
        } else {
            LOG.info("multi: the servers run {} or later: reads read every znode in one read-only multi",
                    oldest.orElseThrow());
        }
    }

    /** Whether reads read every znode in one read-only multi (known after {@link #setup}). */
    public boolean readsAtOnce() {
        if (readsAtOnce == null) {
            throw new IllegalStateException("the multi workload learns how it reads at setup");
        }
        return readsAtOnce;
    }

    /**
     * Transactions (2) and reads (1). A transaction touches two or three distinct znodes: a register is checked (1)
     * or set (2), a node created or deleted as the generator last left it, so that most transactions can succeed.
     */
    @Override
    protected Gen<Invocation> generator() {
        boolean atOnce = readsAtOnce();
        return Gens.mix(() -> {
            long[] counter = {0};
            boolean[] present = new boolean[keys];
            return List.of(new Gens.Weighted<>(2, r -> {
                List<Integer> picked = pick(r, 2 + r.nextInt(2));
                List<Object> micros = new ArrayList<>();
                for (int k : picked) {
                    if (k < keys) {
                        micros.add(r.nextInt(3) == 0 ? micro("check", register(k), null)
                                : micro("set", register(k), ++counter[0]));
                    } else {
                        int e = k - keys;
                        micros.add(present[e] ? micro("delete", node(e), null) : micro("create", node(e),
                                ++counter[0]));
                        present[e] = !present[e];
                    }
                }
                return new Invocation("txn", null, micros);
            }), new Gens.Weighted<>(1, r -> {
                List<Object> micros = new ArrayList<>();
                if (atOnce) {
                    for (int i = 0; i < keys; i++) {
                        micros.add(micro("read", register(i), null));
                    }
                    for (int i = 0; i < keys; i++) {
                        micros.add(micro("read", node(i), null));
                    }
                } else {
                    int k = r.nextInt(2 * keys);
                    micros.add(micro("read", k < keys ? register(k) : node(k - keys), null));
                }
                return new Invocation("read", null, micros);
            }));
        });
    }

    /** {@code n} distinct indices of the 2K znodes (registers first, then nodes), at most all of them. */
    private List<Integer> pick(SplittableRandom r, int n) {
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < 2 * keys; i++) {
            all.add(i);
        }
        List<Integer> out = new ArrayList<>();
        while (out.size() < n && !all.isEmpty()) {
            out.add(all.remove(r.nextInt(all.size())));
        }
        return out;
    }

    private static List<Object> micro(String op, String key, Object value) {
        return Arrays.asList(op, key, value);
    }

    @Override
    protected Client open(int process, Target target) throws Exception {
        ZooKeeper zk = Sessions.openClient(target.connectString(), target, null);
        List<ACL> acl = target.acls().forClient(zk);
        return new Client() {
            @Override
            public Result invoke(Invocation op) {
                try {
                    return switch (op.f()) {
                        case "txn" -> split ? new SplitTxn(zk, acl).run((List<?>) op.value())
                                : txn(zk, acl, (List<?>) op.value());
                        case "read" -> read(zk, (List<?>) op.value());
                        default -> Result.fail("unknown function " + op.f());
                    };
                } catch (KeeperException | InterruptedException e) {
                    return Outcomes.indeterminate(e);
                }
            }

            @Override
            public void close() {
                Sessions.closeQuietly(zk);
            }
        };
    }

    /**
     * One {@code multi}: the checked registers' versions read first (after {@code sync}), then every operation in one
     * request. A rejected transaction names the operation that failed it.
     */
    private Result txn(ZooKeeper zk, List<ACL> acl, List<?> micros) throws KeeperException, InterruptedException {
        Map<String, Stat> checked = new HashMap<>();
        Map<String, Long> values = new HashMap<>();
        try {
            readChecked(zk, micros, checked, values);
        } catch (KeeperException e) {
            return Result.failUnsent(Outcomes.describe(e));
        }
        List<Op> ops = new ArrayList<>();
        for (Object o : micros) {
            List<?> m = (List<?>) o;
            String f = (String) m.get(0);
            String p = path((String) m.get(1));
            ops.add(switch (f) {
                case "check" -> Op.check(p, checked.get((String) m.get(1)).getVersion());
                case "set" -> Op.setData(p, Znodes.encode((Long) m.get(2)), -1);
                case "create" -> Op.create(p, Znodes.encode((Long) m.get(2)), acl,
                        CreateMode.PERSISTENT);
                case "delete" -> Op.delete(p, -1);
                default -> throw new IllegalArgumentException("unknown operation " + f + " in a transaction");
            });
        }
        try {
            zk.multi(ops);
        } catch (KeeperException e) {
            if (e.getResults() == null) {
                throw e; // no answer to the transaction: unknown whether it happened
            }
            return Result.fail(failedOp(e, micros));
        }
        return Result.ok(filled(micros, values));
    }

    /** The registers a transaction checks: their value and version, after {@code sync}. */
    private void readChecked(ZooKeeper zk, List<?> micros, Map<String, Stat> checked, Map<String, Long> values)
            throws KeeperException, InterruptedException {
        boolean synced = false;
        for (Object o : micros) {
            List<?> m = (List<?>) o;
            if ("check".equals(m.get(0))) {
                if (!synced) {
                    zk.sync(root);
                    synced = true;
                }
                Stat stat = new Stat();
                values.put((String) m.get(1), Znodes.decode(zk.getData(path((String) m.get(1)), false, stat)));
                checked.put((String) m.get(1), stat);
            }
        }
    }

    /** The micro-ops with each check's value filled in. */
    private static List<Object> filled(List<?> micros, Map<String, Long> values) {
        List<Object> out = new ArrayList<>();
        for (Object o : micros) {
            List<?> m = (List<?>) o;
            out.add("check".equals(m.get(0)) ? micro("check", (String) m.get(1), values.get((String) m.get(1))) : m);
        }
        return out;
    }

    /** The error of a rejected transaction, naming the first operation that failed. */
    private static String failedOp(KeeperException e, List<?> micros) {
        List<OpResult> results = e.getResults();
        for (int i = 0; i < results.size(); i++) {
            if (results.get(i) instanceof OpResult.ErrorResult err && err.getErr() != 0
                    && err.getErr() != KeeperException.Code.RUNTIMEINCONSISTENCY.intValue()) {
                List<?> m = (List<?>) micros.get(i);
                return KeeperException.Code.get(err.getErr()).name().toLowerCase(java.util.Locale.ROOT)
                        .replace('_', '-') + " at " + m.get(0) + " " + m.get(1);
            }
        }
        return Outcomes.describe(e);
    }

    /** After {@code sync}: every znode in one read-only multi, or the one znode with {@code getData}. */
    private Result read(ZooKeeper zk, List<?> micros) throws KeeperException, InterruptedException {
        zk.sync(root);
        List<Object> out = new ArrayList<>();
        if (micros.size() == 1) {
            String key = (String) ((List<?>) micros.get(0)).get(1);
            Long v;
            try {
                v = Znodes.decode(zk.getData(path(key), false, null));
            } catch (KeeperException.NoNodeException e) {
                v = null;
            }
            out.add(micro("read", key, v));
            return Result.ok(out);
        }
        List<Op> ops = new ArrayList<>();
        for (Object o : micros) {
            ops.add(Op.getData(path((String) ((List<?>) o).get(1))));
        }
        List<OpResult> results = zk.multi(ops);
        for (int i = 0; i < results.size(); i++) {
            String key = (String) ((List<?>) micros.get(i)).get(1);
            OpResult r = results.get(i);
            if (r instanceof OpResult.GetDataResult d) {
                out.add(micro("read", key, Znodes.decode(d.getData())));
            } else if (r instanceof OpResult.ErrorResult err
                    && err.getErr() == KeeperException.Code.NONODE.intValue()) {
                out.add(micro("read", key, null));
            } else {
                return Result.info("read of " + key + " in the read-only multi answered " + r);
            }
        }
        return Result.ok(out);
    }

    /**
     * The broken client: each operation of a transaction as a call of its own. The first one the servers reject ends
     * the transaction as failed, though the calls before it took effect.
     */
    private final class SplitTxn {
        private final ZooKeeper zk;
        private final List<ACL> acl;

        SplitTxn(ZooKeeper zk, List<ACL> acl) {
            this.zk = zk;
            this.acl = acl;
        }

        Result run(List<?> micros) throws KeeperException, InterruptedException {
            Map<String, Long> values = new HashMap<>();
            for (Object o : micros) {
                List<?> m = (List<?>) o;
                String key = (String) m.get(1);
                String p = path(key);
                try {
                    switch ((String) m.get(0)) {
                        case "check" -> values.put(key, Znodes.decode(zk.getData(p, false, null)));
                        case "set" -> zk.setData(p, Znodes.encode((Long) m.get(2)), -1);
                        case "create" -> zk.create(p, Znodes.encode((Long) m.get(2)), acl,
                                CreateMode.PERSISTENT);
                        case "delete" -> zk.delete(p, -1);
                        default -> throw new IllegalArgumentException("unknown operation " + m.get(0));
                    }
                } catch (KeeperException.NodeExistsException | KeeperException.NoNodeException e) {
                    return Result.fail(Outcomes.describe(e) + " at " + m.get(0) + " " + key);
                }
            }
            return Result.ok(filled(micros, values));
        }
    }

    @Override
    public void teardown(Target target) {
        // The znodes are left for inspection; setup clears them at the next run.
    }
}
