package io.zkchaos.checkers.linear;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.checkers.history.Operation;
import io.zkchaos.checkers.model.Model;
import io.zkchaos.checkers.model.Models;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Differential test: on thousands of small random histories (random results, so many are not linearizable; random
 * fail and info outcomes), the checker — with all its pruning — agrees with a brute-force enumeration of every
 * order that respects real time, in which indeterminate operations may be left out.
 */
class BruteForceOracleTest {

    private static final int HISTORIES = 1500;

    @ParameterizedTest
    @ValueSource(strings = {"register", "cas-register", "kv", "set", "mutex"})
    void theCheckerAgreesWithBruteForce(String modelName) {
        SplittableRandom random = new SplittableRandom(modelName.hashCode());
        @SuppressWarnings("unchecked")
        Model<Object> model = (Model<Object>) Models.byName(modelName, init(modelName));
        LinearizabilityChecker checker = LinearizabilityChecker.builder(model).parallelism(1).build();
        LinearizabilityChecker searchOnly = LinearizabilityChecker.builder(SearchOnly.of(model)).parallelism(1)
                .build();
        int invalid = 0;
        for (int i = 0; i < HISTORIES; i++) {
            History h = randomHistory(modelName, random);
            boolean expected = linearizable(model, h.operations());
            CheckResult r = checker.check(h);
            assertThat(r.validity()).as("history %d: %s%n%s", i, r.summary(), h.ops())
                    .isEqualTo(expected ? Validity.VALID : Validity.INVALID);
            CheckResult s = searchOnly.check(h);
            assertThat(s.validity()).as("search only, history %d: %s%n%s", i, s.summary(), h.ops())
                    .isEqualTo(expected ? Validity.VALID : Validity.INVALID);
            if (!expected) {
                invalid++;
            }
        }
        // the generator must exercise both verdicts
        assertThat(invalid).isBetween(HISTORIES / 10, HISTORIES * 9 / 10);
    }

    private static Object init(String model) {
        return model.endsWith("register") ? 0L : null;
    }

    private static History randomHistory(String model, SplittableRandom random) {
        int processes = 2 + random.nextInt(3);
        int total = 3 + random.nextInt(10);
        List<Op> ops = new ArrayList<>();
        Map<Integer, Op> open = new HashMap<>();
        int[] pid = new int[processes];
        for (int p = 0; p < processes; p++) {
            pid[p] = p;
        }
        int invoked = 0;
        while (invoked < total || !open.isEmpty()) {
            int s = random.nextInt(processes);
            Op inv = open.get(s);
            if (inv == null) {
                if (invoked == total) {
                    continue;
                }
                Object[] call = randomCall(model, random);
                Op op = Op.invoke(ops.size(), pid[s], (String) call[0], null, call[1], -1);
                ops.add(op);
                open.put(s, op);
                invoked++;
                continue;
            }
            open.remove(s);
            int roll = random.nextInt(10);
            if (roll == 0) {
                continue; // never completes (but the slot is free: a new process takes over)
            }
            OpType type = roll <= 2 ? OpType.INFO : roll == 3 ? OpType.FAIL : OpType.OK;
            Object value = type == OpType.OK ? randomResult(model, inv, random) : inv.value();
            ops.add(new Op(ops.size(), inv.process(), type, inv.f(), null, value, null, -1));
            if (type == OpType.INFO) {
                pid[s] += processes;
            }
        }
        // a slot freed by a never-completed op reuses its process id: renumber so each op has its own process
        for (int i = 0, next = 1000; i < ops.size(); i++) {
            Op op = ops.get(i);
            if (op.type() == OpType.INVOKE) {
                boolean completes = false;
                for (int j = i + 1; j < ops.size(); j++) {
                    if (ops.get(j).process() == op.process()) {
                        completes = ops.get(j).type() != OpType.INVOKE;
                        break;
                    }
                }
                if (!completes) {
                    ops.set(i, new Op(op.index(), next++, op.type(), op.f(), null, op.value(), null, -1));
                }
            }
        }
        return History.of(ops);
    }

    private static Object[] randomCall(String model, SplittableRandom r) {
        long v = 1 + r.nextInt(3);
        return switch (model) {
            case "register" -> r.nextBoolean() ? new Object[] {"read", null} : new Object[] {"write", v};
            case "cas-register" -> switch (r.nextInt(3)) {
                case 0 -> new Object[] {"read", null};
                case 1 -> new Object[] {"write", v};
                default -> new Object[] {"cas", List.of((long) r.nextInt(4), v)};
            };
            case "kv" -> switch (r.nextInt(3)) {
                case 0 -> new Object[] {"get", null};
                case 1 -> new Object[] {"put", r.nextBoolean() ? "a" : "b"};
                default -> new Object[] {"append", r.nextBoolean() ? "a" : "b"};
            };
            case "set" -> r.nextBoolean() ? new Object[] {"read", null} : new Object[] {"add", v};
            case "mutex" -> r.nextBoolean() ? new Object[] {"acquire", null} : new Object[] {"release", null};
            default -> throw new IllegalArgumentException(model);
        };
    }

    private static Object randomResult(String model, Op inv, SplittableRandom r) {
        if (!inv.f().equals("read") && !inv.f().equals("get")) {
            return inv.value();
        }
        return switch (model) {
            case "kv" -> List.of("", "a", "b", "ab", "ba", "aa").get(r.nextInt(6));
            case "set" -> {
                List<Object> s = new ArrayList<>();
                for (long e = 1; e <= 3; e++) {
                    if (r.nextInt(3) > 0) {
                        s.add(e);
                    }
                }
                yield s;
            }
            default -> r.nextInt(8) == 0 ? null : (long) r.nextInt(4);
        };
    }

    /** Every order that respects real time; info operations optional; fail operations absent. */
    private static boolean linearizable(Model<Object> model, List<Operation> all) {
        List<Operation> ops = all.stream().filter(o -> !o.isFail()).toList();
        return search(model, ops, new boolean[ops.size()], model.init(), new HashSet<>());
    }

    private static boolean search(Model<Object> model, List<Operation> ops, boolean[] used, Object state,
                                  Set<List<Object>> dead) {
        boolean done = true;
        for (int i = 0; i < ops.size(); i++) {
            if (!used[i] && !ops.get(i).isInfo()) {
                done = false;
            }
        }
        if (done) {
            return true;
        }
        List<Object> key = List.of(Arrays.toString(used), state);
        if (dead.contains(key)) {
            return false;
        }
        for (int i = 0; i < ops.size(); i++) {
            if (used[i] || !eligible(ops, used, ops.get(i))) {
                continue;
            }
            Object next = model.step(state, ops.get(i));
            if (next == null) {
                continue;
            }
            used[i] = true;
            boolean ok = search(model, ops, used, next, dead);
            used[i] = false;
            if (ok) {
                return true;
            }
        }
        dead.add(key);
        return false;
    }

    /** {@code op} may go next unless a determinate operation not yet placed completed before it was invoked. */
    private static boolean eligible(List<Operation> ops, boolean[] used, Operation op) {
        for (int j = 0; j < ops.size(); j++) {
            Operation p = ops.get(j);
            if (!used[j] && !p.isInfo() && p.completeIndex() < op.invokeIndex()) {
                return false;
            }
        }
        return true;
    }
}
