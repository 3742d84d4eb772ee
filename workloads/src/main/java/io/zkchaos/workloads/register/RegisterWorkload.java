package io.zkchaos.workloads.register;

import io.zkchaos.workloads.Client;
import io.zkchaos.workloads.ClientWorkload;
import io.zkchaos.workloads.Invocation;
import io.zkchaos.workloads.Outcomes;
import io.zkchaos.workloads.Result;
import io.zkchaos.workloads.Sessions;
import io.zkchaos.workloads.Target;
import io.zkchaos.workloads.Znodes;
import io.zkchaos.checkers.gen.Gen;
import io.zkchaos.checkers.gen.Gens;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * {@code register}: read / write / compare-and-set on {@code keys} znodes {@code ROOT/r0 .. r(K-1)}.
 *
 * <p>History: {@code write v} (key = {@code r<i>}), {@code cas [expected new]}, and {@code read} or
 * {@code sync-read} (ok value = the long read, or null if never written). Every write and cas writes a value unique
 * across the run (one counter), so a read names the write it saw.
 *
 * <p>CAS is honest: ZooKeeper compares versions, not values, so the client first runs {@code sync()} and
 * {@code getData} to learn the current value and its version (sync so that a lagging follower does not make it fail
 * a cas that would have succeeded), fails if the value is not the expected one, else {@code setData} with that
 * version. BadVersion means another write came in between, so the value was no longer the expected one: a true
 * {@code fail}. Jepsen's ZooKeeper test does the same read-then-versioned-set (through Avout's {@code swap!!}), but
 * retries on BadVersion; we record the definite failure instead. An error before the {@code setData} was sent is a
 * {@code fail} too (nothing was written), and the process is retired all the same since its session is in doubt.
 */
public final class RegisterWorkload extends ClientWorkload {

    /** Which read the workload issues. */
    public enum ReadMode {
        /** Plain {@code getData}: sequentially consistent only (a follower may serve a stale value). */
        PLAIN,
        /** {@code sync()} then {@code getData}: linearizable in practice. */
        SYNC
    }

    private final String root;
    private final int keys;
    private final ReadMode readMode;
    private final int readWeight;
    private final int writeWeight;
    private final int casWeight;

    /**
     * @param root     parent znode of the keys
     * @param keys     how many keys (at least 1)
     * @param readMode plain or sync reads
     */
    public RegisterWorkload(String root, int keys, ReadMode readMode) {
        this(root, keys, readMode, 2, 1, 1);
    }

    public RegisterWorkload(String root, int keys, ReadMode readMode, int readWeight, int writeWeight,
                            int casWeight) {
        this.root = Objects.requireNonNull(root, "root");
        if (keys < 1) {
            throw new IllegalArgumentException("keys must be at least 1, got " + keys);
        }
        this.keys = keys;
        this.readMode = Objects.requireNonNull(readMode, "readMode");
        this.readWeight = readWeight;
        this.writeWeight = writeWeight;
        this.casWeight = casWeight;
    }

    @Override
    public String name() {
        return "register";
    }

    public static String key(int i) {
        return "r" + i;
    }

    private String path(String key) {
        return root + "/" + key;
    }

    @Override
    public void setup(Target target) throws Exception {
        ZooKeeper zk = Sessions.open(target.connectString(), target, null);
        try {
            Znodes.deleteRecursive(zk, root);
            for (int i = 0; i < keys; i++) {
                Znodes.ensurePath(zk, path(key(i)), target.acls().forSetup());
            }
        } finally {
            Sessions.closeQuietly(zk);
        }
    }

    /**
     * The mix: reads, writes and cas on random keys with weights (2:1:1 by default). Values come from one counter;
     * a cas expects the last value this generator wrote to that key (so many succeed), or is a write when nothing
     * was written there yet.
     */
    @Override
    public Gen<Invocation> generator() {
        return mix(keys, readMode, readWeight, writeWeight, casWeight);
    }

    /**
     * The register mix over keys {@code r0 .. r(keys-1)} with these weights, as {@link #generator()} describes it;
     * shared with the register workload of the fle nodes, so both systems get the same operations from one seed.
     */
    public static Gen<Invocation> mix(int keys, ReadMode readMode, int readWeight, int writeWeight, int casWeight) {
        String readF = readMode == ReadMode.SYNC ? "sync-read" : "read";
        return Gens.mix(() -> {
            long[] counter = {0};
            Map<String, Long> last = new HashMap<>();
            List<Gens.Weighted<Invocation>> mix = new ArrayList<>();
            if (readWeight > 0) {
                mix.add(new Gens.Weighted<>(readWeight, r -> new Invocation(readF, key(r.nextInt(keys)), null)));
            }
            if (writeWeight > 0) {
                mix.add(new Gens.Weighted<>(writeWeight, r -> {
                    String k = key(r.nextInt(keys));
                    long v = ++counter[0];
                    last.put(k, v);
                    return new Invocation("write", k, v);
                }));
            }
            if (casWeight > 0) {
                mix.add(new Gens.Weighted<>(casWeight, r -> {
                    String k = key(r.nextInt(keys));
                    long v = ++counter[0];
                    Long expected = last.put(k, v);
                    return expected == null ? new Invocation("write", k, v)
                            : new Invocation("cas", k, List.of(expected, v));
                }));
            }
            return mix;
        });
    }

    @Override
    protected Client open(int process, Target target) throws Exception {
        return new RegisterClient(Sessions.openClient(target.connectString(), target, null));
    }

    @Override
    public void teardown(Target target) {
        // Keys are left for inspection; setup clears them at the next run.
    }

    private final class RegisterClient implements Client {
        private final ZooKeeper zk;

        RegisterClient(ZooKeeper zk) {
            this.zk = zk;
        }

        @Override
        public Result invoke(Invocation op) {
            String path = path(op.key());
            try {
                return switch (op.f()) {
                    case "read" -> Result.ok(Znodes.decode(zk.getData(path, false, null)));
                    case "sync-read" -> {
                        zk.sync(path);
                        yield Result.ok(Znodes.decode(zk.getData(path, false, null)));
                    }
                    case "write" -> write(path, (Long) op.value());
                    case "cas" -> cas(path, op);
                    default -> Result.fail("unknown function " + op.f());
                };
            } catch (KeeperException | InterruptedException e) {
                return Outcomes.indeterminate(e);
            }
        }

        private Result write(String path, long value) throws KeeperException, InterruptedException {
            try {
                zk.setData(path, Znodes.encode(value), -1);
                return Result.ok(value);
            } catch (KeeperException.NoNodeException e) {
                return Result.fail("no-node " + path); // a setData on a missing znode changes nothing
            }
        }

        private Result cas(String path, Invocation op) throws KeeperException, InterruptedException {
            List<?> args = (List<?>) op.value();
            long expected = (Long) args.get(0);
            long next = (Long) args.get(1);
            Stat stat = new Stat();
            Long current;
            try {
                zk.sync(path);
                current = Znodes.decode(zk.getData(path, false, stat));
            } catch (KeeperException e) {
                return Result.failUnsent(Outcomes.describe(e));
            }
            if (!Objects.equals(current, expected)) {
                return Result.fail("value was " + current);
            }
            try {
                zk.setData(path, Znodes.encode(next), stat.getVersion());
                return Result.ok(List.of(expected, next));
            } catch (KeeperException.BadVersionException e) {
                return Result.fail("bad-version: changed since read at version " + stat.getVersion());
            }
        }

        @Override
        public void close() {
            Sessions.closeQuietly(zk);
        }
    }
}
