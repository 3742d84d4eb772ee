package io.zkchaos.checkers.readmodel;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Histories from a simulated ZooKeeper that keeps exactly its promises — writes take effect atomically between invoke
 * and ack, a plain read returns any value at or after what its session has seen (stale allowed), a sync-read the
 * latest — must pass; the same histories with one read planted backwards must fail. Fixed seeds.
 */
class SimulatedZooKeeperTest {

    /** One pending operation of the simulation. */
    private static final class Pending {
        final Op invoke;
        Object result;
        boolean resolved;

        Pending(Op invoke) {
            this.invoke = invoke;
        }
    }

    /**
     * @param writers processes that write (1 = writes strictly sequential, so every write order is real-time order)
     */
    static List<Op> simulate(long seed, int steps, int writers, int readers) {
        Random rnd = new Random(seed);
        List<Op> ops = new ArrayList<>();
        List<Long> committed = new ArrayList<>();
        committed.add(null); // the initial value
        Map<Integer, Integer> frontier = new HashMap<>();
        Map<Integer, Pending> pending = new HashMap<>();
        long next = 1;
        int processes = writers + readers;
        for (int step = 0; step < steps; step++) {
            int p = rnd.nextInt(processes);
            Pending op = pending.get(p);
            long t = ops.size() * 1_000_000L;
            if (op == null) {
                String f = p < writers ? "write" : rnd.nextInt(4) == 0 ? "sync-read" : "read";
                Op inv = new Op(ops.size(), p, OpType.INVOKE, f, "x", f.equals("write") ? next++ : null, null, t);
                ops.add(inv);
                pending.put(p, new Pending(inv));
            } else if (!op.resolved) { // the moment it takes effect
                int f = frontier.getOrDefault(p, 0);
                switch (op.invoke.f()) {
                    case "write" -> {
                        committed.add((Long) op.invoke.value());
                        frontier.put(p, committed.size() - 1);
                    }
                    case "sync-read" -> {
                        frontier.put(p, committed.size() - 1);
                        op.result = committed.get(committed.size() - 1);
                    }
                    default -> {
                        int at = f + rnd.nextInt(committed.size() - f);
                        frontier.put(p, at);
                        op.result = committed.get(at);
                    }
                }
                op.resolved = true;
            } else {
                ops.add(new Op(ops.size(), p, OpType.OK, op.invoke.f(), "x", op.result, null, t));
                pending.remove(p);
            }
        }
        return ops;
    }

    private static final ZkReadModelChecker CHECKER = ZkReadModelChecker.of(null, false, Duration.ofSeconds(20));

    @Test
    void aZooKeeperThatKeepsItsPromisesPasses() {
        int stale = 0;
        for (long seed = 1; seed <= 20; seed++) {
            History h = History.of(simulate(seed, 600, 3, 4));
            CheckResult r = CHECKER.check(h);
            assertThat(r.validity()).as("seed %d: %s", seed, r.summary()).isEqualTo(Validity.VALID);
            stale += ((ReadModelReport) r.details()).staleReads().size();
        }
        assertThat(stale).as("the simulation does produce stale reads").isGreaterThan(0);
    }

    @Test
    void oneReadPlantedBackwardsIsCaught() {
        int planted = 0;
        for (long seed = 1; seed <= 20; seed++) {
            List<Op> ops = simulate(seed, 600, 1, 4);
            // find a reader's ok read that follows another ok read of the same session that saw a value > 1
            Map<Integer, Long> lastSeen = new HashMap<>();
            for (int i = 0; i < ops.size(); i++) {
                Op op = ops.get(i);
                if (op.type() != OpType.OK || op.process() == 0) {
                    continue;
                }
                Long before = lastSeen.get(op.process());
                if (op.f().equals("read") && before != null && before > 1) {
                    ops.set(i, new Op(op.index(), op.process(), op.type(), op.f(), op.key(), before - 1, null,
                            op.time()));
                    CheckResult r = CHECKER.check(History.of(ops));
                    assertThat(r.validity()).as("seed %d", seed).isEqualTo(Validity.INVALID);
                    assertThat(((ReadModelReport) r.details()).violations()).singleElement().satisfies(v -> {
                        assertThat(v.kind()).isEqualTo("read-backwards");
                        assertThat(v.value()).isEqualTo(before - 1);
                        assertThat(v.readIndex()).isEqualTo(op.index());
                    });
                    planted++;
                    break;
                }
                if (op.value() != null) {
                    lastSeen.put(op.process(), (Long) op.value());
                }
            }
        }
        assertThat(planted).isGreaterThan(10);
    }
}
