package io.zkchaos.checkers.bench;

import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.TreeSet;

/**
 * Seeded, deterministic histories of a <em>correct</em> object under random concurrency, for tests and benchmarks:
 * a simulation in which every operation takes effect atomically at one random moment between its invoke and its
 * completion, so every history it produces is linearizable.
 *
 * <p>Some operations end indeterminate ({@code info}, as on a timeout): they either took effect before the timeout,
 * take effect at a random later moment, or never do; their process is retired and replaced by a new one, as in
 * Jepsen. Values are unique per write (puts, appends, register writes, set elements), which is what lets
 * {@link #plantStaleRead} make a read that no linearization can explain.
 */
public final class HistoryGenerator {

    /** The objects the generator can simulate; each matches the model of the same name. */
    public enum Workload {
        /** get/put/append on strings, 50/25/25 (model {@code kv}). */
        KV("kv"),
        /** read/write, 50/50, starting at 0 (model {@code register}, init 0). */
        REGISTER("register"),
        /** read/write/cas, 40/20/40, starting at 0 (model {@code cas-register}, init 0). */
        CAS_REGISTER("cas-register"),
        /** add/read of the whole set, 70/30 (model {@code set}). */
        SET("set");

        private final String model;

        Workload(String model) {
            this.model = model;
        }

        /** The name of the model that accepts this workload's histories. */
        public String model() {
            return model;
        }

        /** The model's initial value that matches the simulated object's start. */
        public Object init() {
            return this == REGISTER || this == CAS_REGISTER ? 0L : null;
        }
    }

    /**
     * What to generate.
     *
     * @param workload   the simulated object
     * @param keys       independent keys (objects); operations pick one uniformly
     * @param processes  concurrent client slots
     * @param operations how many operations to invoke
     * @param infoRate   the probability that an operation ends indeterminate
     * @param seed       the random seed; equal specs give equal histories
     */
    public record Spec(Workload workload, int keys, int processes, int operations, double infoRate, long seed) {
        public Spec {
            Objects.requireNonNull(workload, "workload");
            if (keys < 1) {
                throw new IllegalArgumentException("keys: must be at least 1, got " + keys);
            }
            if (processes < 1) {
                throw new IllegalArgumentException("processes: must be at least 1, got " + processes);
            }
            if (operations < 0) {
                throw new IllegalArgumentException("operations: must not be negative, got " + operations);
            }
            if (!(infoRate >= 0 && infoRate < 1)) {
                throw new IllegalArgumentException("infoRate: must be in [0, 1), got " + infoRate);
            }
        }

        /** The benchmark's history: kv, 1,000 keys, 50 processes, 1,000,000 operations, 1% info. */
        public static Spec benchmark(long seed) {
            return new Spec(Workload.KV, 1000, 50, 1_000_000, 0.01, seed);
        }
    }

    private HistoryGenerator() {
    }

    /** The history entries of a simulated run of {@code spec}, keyed unless there is one key. */
    public static List<Op> generate(Spec spec) {
        return new Simulation(spec).run();
    }

    /** {@link #generate} as a validated history. */
    public static History history(Spec spec) {
        return History.of(generate(spec));
    }

    /**
     * A copy of {@code ops} in which one ok read returns a value that its key held earlier but that was certainly
     * overwritten before the read began: a stale read no linearization can explain. It picks the last such read
     * whose key was last written by an operation that completed ok between an earlier ok read and this one.
     *
     * @return the mutated history entries
     * @throws IllegalArgumentException if the history has no read that can be made stale
     */
    public static List<Op> plantStaleRead(List<Op> ops) {
        // Per key: the last ok read's value and completion index, and the last ok write after it.
        record Seen(Object value, long completed) {
        }
        Map<String, Seen> lastRead = new HashMap<>();
        Map<String, Long> writeAfterRead = new HashMap<>();
        Map<Integer, Op> invokes = new HashMap<>();
        int target = -1;
        Object staleValue = null;
        for (int i = 0; i < ops.size(); i++) {
            Op op = ops.get(i);
            if (op.type() == OpType.INVOKE) {
                invokes.put(op.process(), op);
                continue;
            }
            Op inv = invokes.remove(op.process());
            if (op.type() != OpType.OK || inv == null) {
                continue;
            }
            String key = op.key() == null ? "" : op.key();
            if (isRead(op.f())) {
                Seen before = lastRead.get(key);
                Long w = writeAfterRead.get(key);
                if (before != null && w != null && before.completed < w && w < inv.index()
                        && !Objects.equals(before.value, op.value())) {
                    target = i;
                    staleValue = before.value;
                }
                lastRead.put(key, new Seen(op.value(), op.index()));
                writeAfterRead.remove(key);
            } else if (lastRead.containsKey(key) && !writeAfterRead.containsKey(key)) {
                // the first ok write invoked after the last read completed
                if (inv.index() > lastRead.get(key).completed) {
                    writeAfterRead.put(key, op.index());
                }
            }
        }
        if (target < 0) {
            throw new IllegalArgumentException("no ok read in the history can be made stale");
        }
        List<Op> out = new ArrayList<>(ops);
        Op t = ops.get(target);
        out.set(target, new Op(t.index(), t.process(), t.type(), t.f(), t.key(), staleValue, t.error(), t.time()));
        return out;
    }

    /** The history index of the read {@link #plantStaleRead} changed, found by comparing. */
    public static long differingIndex(List<Op> a, List<Op> b) {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            if (!a.get(i).equals(b.get(i))) {
                return a.get(i).index();
            }
        }
        return -1;
    }

    private static boolean isRead(String f) {
        return f.equals("get") || f.equals("read");
    }

    /** One simulated run. */
    private static final class Simulation {
        private final Spec spec;
        private final SplittableRandom random;
        private final List<Op> out;
        private final Object[] store;
        private final int[] pid;
        private final Pending[] slots;
        private final ArrayDeque<Pending> zombies = new ArrayDeque<>();
        private long nextValue = 1;

        /** An outstanding operation: applied once it took effect, with its result. */
        private static final class Pending {
            final Op invoke;
            final int key;
            boolean applied;
            boolean succeeded = true;
            Object result;

            Pending(Op invoke, int key) {
                this.invoke = invoke;
                this.key = key;
            }
        }

        Simulation(Spec spec) {
            this.spec = spec;
            this.random = new SplittableRandom(spec.seed());
            this.out = new ArrayList<>(spec.operations() * 2 + 16);
            this.store = new Object[spec.keys()];
            Arrays.fill(store, initial(spec.workload()));
            this.pid = new int[spec.processes()];
            for (int i = 0; i < pid.length; i++) {
                pid[i] = i;
            }
            this.slots = new Pending[spec.processes()];
        }

        private static Object initial(Workload w) {
            return switch (w) {
                case KV -> "";
                case REGISTER, CAS_REGISTER -> 0L;
                case SET -> List.of();
            };
        }

        List<Op> run() {
            int invoked = 0;
            int outstanding = 0;
            double half = spec.infoRate() / 2;
            while (invoked < spec.operations() || outstanding > 0) {
                if (!zombies.isEmpty() && random.nextInt(64) == 0) {
                    Pending z = zombies.poll();
                    if (random.nextBoolean()) {
                        apply(z); // an indeterminate operation that took effect after its process gave up
                    }
                }
                int s = random.nextInt(slots.length);
                Pending p = slots[s];
                if (p == null) {
                    if (invoked < spec.operations()) {
                        slots[s] = invoke(s);
                        invoked++;
                        outstanding++;
                    }
                    continue;
                }
                if (!p.applied) {
                    if (random.nextDouble() < half) {
                        complete(s, p, OpType.INFO);
                        zombies.add(p);
                        outstanding--;
                    } else {
                        apply(p);
                    }
                    continue;
                }
                complete(s, p, random.nextDouble() < half ? OpType.INFO : p.succeeded ? OpType.OK : OpType.FAIL);
                outstanding--;
            }
            return out;
        }

        private String keyName(int key) {
            return spec.keys() == 1 ? null : Integer.toString(key);
        }

        private Pending invoke(int slot) {
            int key = random.nextInt(spec.keys());
            int roll = random.nextInt(100);
            String f;
            Object value = null;
            switch (spec.workload()) {
                case KV -> {
                    f = roll < 50 ? "get" : roll < 75 ? "put" : "append";
                    if (!f.equals("get")) {
                        value = (f.equals("put") ? "p" : "a") + (nextValue++) + " ";
                    }
                }
                case REGISTER -> {
                    f = roll < 50 ? "read" : "write";
                    value = f.equals("write") ? nextValue++ : null;
                }
                case CAS_REGISTER -> {
                    f = roll < 40 ? "read" : roll < 60 ? "write" : "cas";
                    if (f.equals("write")) {
                        value = nextValue++;
                    } else if (f.equals("cas")) {
                        // expect the current value half the time, so that about half the cas succeed
                        long expected = random.nextBoolean() ? (Long) store[key]
                                : Math.max(0, nextValue - 1 - random.nextInt(3));
                        value = List.of(expected, nextValue++);
                    }
                }
                case SET -> {
                    f = roll < 70 ? "add" : "read";
                    value = f.equals("add") ? nextValue++ : null;
                }
                default -> throw new IllegalStateException();
            }
            Op op = Op.invoke(out.size(), pid[slot], f, keyName(key), value, out.size() * 1000L);
            out.add(op);
            return new Pending(op, key);
        }

        private void apply(Pending p) {
            Op op = p.invoke;
            Object current = store[p.key];
            switch (op.f()) {
                case "get", "read" -> p.result = current;
                case "put", "write" -> store[p.key] = op.value();
                case "append" -> store[p.key] = ((String) current).concat((String) op.value());
                case "cas" -> {
                    List<?> pair = (List<?>) op.value();
                    p.succeeded = pair.get(0).equals(current);
                    if (p.succeeded) {
                        store[p.key] = pair.get(1);
                    }
                }
                case "add" -> {
                    TreeSet<Object> next = new TreeSet<>((List<?>) current);
                    next.add(op.value());
                    store[p.key] = List.copyOf(next);
                }
                default -> throw new IllegalStateException(op.f());
            }
            p.applied = true;
        }

        private void complete(int slot, Pending p, OpType type) {
            Op inv = p.invoke;
            Object value = type == OpType.OK && isRead(inv.f()) ? p.result : inv.value();
            String error = switch (type) {
                case INFO -> "timeout";
                case FAIL -> "precondition failed";
                default -> null;
            };
            out.add(new Op(out.size(), inv.process(), type, inv.f(), inv.key(), value, error, out.size() * 1000L));
            slots[slot] = null;
            if (type == OpType.INFO) {
                pid[slot] += spec.processes(); // retire the process, as Jepsen does
            }
        }
    }
}
