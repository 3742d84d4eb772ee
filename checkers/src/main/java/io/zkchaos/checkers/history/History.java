package io.zkchaos.checkers.history;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;

/**
 * A validated, immutable history: every completion follows an invoke of the same process and function, and a
 * process has at most one operation outstanding. Nemesis entries are kept in order but not paired.
 */
public final class History {

    private final List<Op> ops;
    private final List<Operation> operations;
    private final List<Op> nemesisOps;

    private History(List<Op> ops, List<Operation> operations, List<Op> nemesisOps) {
        this.ops = ops;
        this.operations = operations;
        this.nemesisOps = nemesisOps;
    }

    /** Validates and pairs {@code ops}; errors name the op index. */
    public static History of(List<Op> ops) {
        return of(ops, index -> "op " + index);
    }

    /**
     * Validates and pairs {@code ops}.
     *
     * @param where describes the source position of an op index (e.g. {@code "history.edn line 12"}), for errors
     * @throws MalformedHistoryException naming the position and the reason
     */
    public static History of(List<Op> ops, LongFunction<String> where) {
        List<Op> copy = List.copyOf(ops);
        List<Operation> operations = new ArrayList<>(copy.size() / 2 + 1);
        List<Op> nemesis = new ArrayList<>();
        Map<Integer, Op> outstanding = new HashMap<>();
        Map<Integer, Integer> slotOf = new HashMap<>();
        long previousIndex = Long.MIN_VALUE;
        for (Op op : copy) {
            if (op.index() <= previousIndex) {
                throw new MalformedHistoryException(where.apply(op.index()) + ": index " + op.index()
                        + " is not greater than the previous index " + previousIndex, op.index());
            }
            previousIndex = op.index();
            if (op.isNemesis()) {
                nemesis.add(op);
                continue;
            }
            if (op.type() == OpType.INVOKE) {
                Op pending = outstanding.get(op.process());
                if (pending != null) {
                    throw new MalformedHistoryException(where.apply(op.index()) + ": process " + op.process()
                            + " invokes " + op.f() + " while its " + pending.f() + " invoked at "
                            + where.apply(pending.index()) + " is still outstanding", op.index());
                }
                outstanding.put(op.process(), op);
                slotOf.put(op.process(), operations.size());
                operations.add(null); // filled at completion, so operations stay in invoke order
            } else {
                Op invoke = outstanding.remove(op.process());
                if (invoke == null) {
                    throw new MalformedHistoryException(where.apply(op.index()) + ": " + op.type().wireName()
                            + " of " + op.f() + " by process " + op.process() + " has no invoke before it",
                            op.index());
                }
                if (!invoke.f().equals(op.f())) {
                    throw new MalformedHistoryException(where.apply(op.index()) + ": process " + op.process()
                            + " completes " + op.f() + " but invoked " + invoke.f() + " at "
                            + where.apply(invoke.index()), op.index());
                }
                int slot = slotOf.remove(op.process());
                operations.set(slot, pair(slot, invoke, op));
            }
        }
        for (Op invoke : outstanding.values()) {
            int slot = slotOf.get(invoke.process());
            operations.set(slot, pair(slot, invoke, null));
        }
        return new History(copy, Collections.unmodifiableList(operations), List.copyOf(nemesis));
    }

    private static Operation pair(int id, Op invoke, Op completion) {
        if (completion == null) {
            return new Operation(id, invoke.process(), invoke.f(), invoke.key(), invoke.value(), null,
                    Operation.Outcome.INFO, "never completed", invoke.index(), -1, invoke.time(), -1);
        }
        Operation.Outcome outcome = switch (completion.type()) {
            case OK -> Operation.Outcome.OK;
            case FAIL -> Operation.Outcome.FAIL;
            case INFO -> Operation.Outcome.INFO;
            case INVOKE -> throw new IllegalStateException("not a completion");
        };
        String key = invoke.key() != null ? invoke.key() : completion.key();
        return new Operation(id, invoke.process(), invoke.f(), key, invoke.value(),
                outcome == Operation.Outcome.INFO ? null : completion.value(), outcome, completion.error(),
                invoke.index(), completion.index(), invoke.time(), completion.time());
    }

    /** Every entry, in history order, nemesis included. */
    public List<Op> ops() {
        return ops;
    }

    /** Client operations, paired, in invoke order; {@link Operation#id()} is the position in this list. */
    public List<Operation> operations() {
        return operations;
    }

    /** The nemesis's entries, in order. */
    public List<Op> nemesisOps() {
        return nemesisOps;
    }

    public int size() {
        return ops.size();
    }
}
