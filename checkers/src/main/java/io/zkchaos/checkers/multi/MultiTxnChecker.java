package io.zkchaos.checkers.multi;

import io.zkchaos.checkers.Capped;
import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Checker;
import io.zkchaos.checkers.Checkers;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.Values;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.checkers.history.Operation;
import io.zkchaos.checkers.linear.LinearizabilityChecker;
import io.zkchaos.checkers.model.MultiRegisterModel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * ZooKeeper's {@code multi}: every transaction happens as a whole or not at all, at one point between its call and
 * its return, for {@code multi} histories.
 *
 * <h2>History contract</h2>
 * (see {@code docs/history-conventions.md}) {@code txn} (no key) whose value is a list of {@code [op key value]}:
 * {@code check} (ok value: the value the checked version held; null in the invoke), {@code set} and {@code create}
 * (the value written, unique in the run), {@code delete} (value null). {@code read} (no key) whose value is a list of
 * {@code [read key value]}, null in the invoke, and in the ok completion the value read, or null for a znode that
 * does not exist; a read of several znodes is one read-only multi (ZooKeeper 3.6+), a read of one znode is a plain
 * {@code getData}; reads are synced. The znodes that checks and sets name are <em>registers</em>: present from the
 * start with the value 0, never deleted (a check compares versions, which only a znode that is never re-created ties
 * to one value). The znodes that creates and deletes name are <em>nodes</em>: absent at the start.
 *
 * <h2>Verdict</h2>
 * Transactions, as the multi-register model reads them (a check is a read of its value, a set a write, a create a read
 * of "absent" then a write, a delete a write of "absent"), must be linearizable: ZooKeeper's writes are. That search
 * is this result's part. Reads must keep what ZooKeeper promises of reads: each sees the transactions whole (a
 * snapshot), and a session's read sees its own transactions. ZooKeeper does not promise linearizable reads, even
 * after {@code sync}: a leader that was deposed without noticing (frozen, then woken) serves synced reads from its
 * old state for a moment. So a stale read, one that misses a transaction acknowledged before it began, is reported
 * as allowed; {@code strict} holds reads to real time as well (they join the search, and a stale read fails the run).
 * What reads are checked for, with a sharp explanation each: a value only a failed transaction wrote
 * ({@code aborted-read}), a value no transaction wrote ({@code unwritten-read}), in one read of several znodes part of
 * a transaction's effects beside a value that transaction had already replaced ({@code fractured-read}), a value older
 * than the session's own last transaction on that znode ({@code own-write}). Znodes that no transaction writes are
 * left out of the search; every read of one must agree. Unknown when no transaction was acknowledged, or when the
 * search ran out of its time limit.
 */
public final class MultiTxnChecker implements Checker {

    public static final String NAME = "multi-txn";

    /** How the translated history shows a znode that does not exist. */
    static final String ABSENT = "absent";

    private final Duration timeLimit;
    private final boolean strict;
    private final boolean search;

    /**
     * @param timeLimit the budget of the linearizability search (null: none)
     * @param strict    whether reads are held to real time too (linearizable reads): stale reads then fail the run
     */
    public MultiTxnChecker(Duration timeLimit, boolean strict) {
        this(timeLimit, strict, true);
    }

    /**
     * For tests only: with {@code search} false, a mutant that skips the linearizability search (its part says valid
     * unsearched), so that a test can show a history that only the search catches.
     */
    MultiTxnChecker(Duration timeLimit, boolean strict, boolean search) {
        this.timeLimit = timeLimit;
        this.strict = strict;
        this.search = search;
    }

    @Override
    public String name() {
        return NAME;
    }

    /** One {@code [op key value]} of a transaction or a read. */
    private record Micro(String op, String key, Object value) {
    }

    /** A transaction or a read with its micro-ops (as completed when ok, else as invoked). */
    private record Step(Operation op, List<Micro> micros) {
        boolean isTxn() {
            return op.f().equals("txn");
        }

        /** What it writes: key to the value (a long, or {@link #ABSENT} for a delete). */
        Map<String, Object> writes() {
            Map<String, Object> w = new LinkedHashMap<>();
            for (Micro m : micros) {
                switch (m.op()) {
                    case "set", "create" -> w.put(m.key(), m.value());
                    case "delete" -> w.put(m.key(), ABSENT);
                    default -> {
                    }
                }
            }
            return w;
        }

        String who() {
            return "the " + (isTxn() ? "transaction" : "read") + " of process " + op.process() + " (index "
                    + op.invokeIndex() + (op.completeIndex() >= 0 ? "-" + op.completeIndex() : "") + ", "
                    + op.outcome().name().toLowerCase(java.util.Locale.ROOT) + ")";
        }
    }

    @Override
    public CheckResult check(History history) {
        List<Step> steps = new ArrayList<>();
        Set<String> registers = new LinkedHashSet<>();
        Set<String> nodes = new LinkedHashSet<>();
        for (Operation op : history.operations()) {
            if (op.f().equals("txn") || op.f().equals("read")) {
                Step s = step(op);
                steps.add(s);
                for (Micro m : s.micros()) {
                    Set<String> kind = switch (m.op()) {
                        case "check", "set" -> registers;
                        case "create", "delete" -> nodes;
                        default -> null;
                    };
                    if (kind != null) {
                        kind.add(m.key());
                        if (registers.contains(m.key()) && nodes.contains(m.key())) {
                            throw Values.malformed(op, "znode " + m.key() + " is both checked or set (a register) "
                                    + "and created or deleted (a node)");
                        }
                    }
                }
            }
        }
        int txnsOk = 0;
        int txnsFailed = 0;
        int txnsInfo = 0;
        int multiReads = 0;
        int singleReads = 0;
        for (Step s : steps) {
            if (s.isTxn()) {
                txnsOk += s.op().isOk() ? 1 : 0;
                txnsFailed += s.op().isFail() ? 1 : 0;
                txnsInfo += s.op().isInfo() ? 1 : 0;
            } else if (s.op().isOk()) {
                multiReads += s.micros().size() > 1 ? 1 : 0;
                singleReads += s.micros().size() == 1 ? 1 : 0;
            }
        }
        if (txnsOk == 0) {
            MultiReport empty = new MultiReport(List.copyOf(registers), List.copyOf(nodes), 0, txnsFailed, txnsInfo,
                    multiReads, singleReads, strict, 0, List.of(), 0, Map.of(), List.of());
            return CheckResult.of(NAME, Validity.UNKNOWN, "No transaction was acknowledged: nothing to check ("
                    + steps.size() + " transaction(s) and read(s) in the history).", empty);
        }
        Findings found = new Findings();
        Writers writers = new Writers(steps, registers);
        unwrittenReads(steps, writers, registers, nodes, found);
        fracturedReads(steps, writers, found);
        ownWrites(steps, writers, found);
        List<String> stale = staleReads(steps, writers);
        Set<String> written = new HashSet<>(registers);
        written.addAll(nodes);
        List<Step> searched = strict ? steps : steps.stream().filter(Step::isTxn).toList();
        CheckResult lin = search ? Checkers.runSafely(linearizability(registers, nodes), translate(searched, written))
                : CheckResult.of("linearizable", Validity.VALID, "not searched", null);
        MultiReport report = new MultiReport(List.copyOf(registers), List.copyOf(nodes), txnsOk, txnsFailed,
                txnsInfo, multiReads, singleReads, strict, stale.size(), stale.stream().limit(MultiReport.SHOWN)
                .toList(), found.all.count(), found.all.byKind(), found.all.kept());
        Validity validity = (found.all.count() > 0 ? Validity.INVALID : Validity.VALID).merge(lin.validity());
        return new CheckResult(NAME, validity, summary(report, lin), report, List.of(lin));
    }

    private LinearizabilityChecker linearizability(Set<String> registers, Set<String> nodes) {
        Map<String, Object> init = new HashMap<>();
        registers.forEach(k -> init.put(k, 0L));
        nodes.forEach(k -> init.put(k, ABSENT));
        LinearizabilityChecker.Builder b = LinearizabilityChecker.builder(new MultiRegisterModel(init));
        if (timeLimit != null) {
            b.timeLimit(timeLimit);
        }
        return b.build();
    }

    /** Which step wrote each value of each znode (values are unique per znode; deletes write no value). */
    private static final class Writers {
        private final Map<String, Map<Object, Step>> byKey = new HashMap<>();
        private final Map<String, List<Step>> deletes = new HashMap<>();
        private final Set<String> registers;

        Writers(List<Step> steps, Set<String> registers) {
            this.registers = registers;
            for (Step s : steps) {
                if (!s.isTxn()) {
                    continue;
                }
                s.writes().forEach((k, v) -> {
                    if (v == ABSENT) {
                        deletes.computeIfAbsent(k, x -> new ArrayList<>()).add(s);
                    } else {
                        byKey.computeIfAbsent(k, x -> new HashMap<>()).put(v, s);
                    }
                });
            }
        }

        /** The step that wrote {@code v} to {@code key}, or null (the initial 0 of a register is no step's). */
        Step of(String key, Object v) {
            return byKey.getOrDefault(key, Map.of()).get(v);
        }

        boolean isInitial(String key, Object v) {
            return registers.contains(key) && Long.valueOf(0).equals(v);
        }

        List<Step> deletesOf(String key) {
            return deletes.getOrDefault(key, List.of());
        }

        /** Every transaction that writes {@code key} (a value or a delete). */
        List<Step> overwrites(String key) {
            List<Step> all = new ArrayList<>(byKey.getOrDefault(key, Map.of()).values());
            all.addAll(deletesOf(key));
            return all;
        }
    }

    /** What ok reads (and the values ok checks saw) returned that no transaction that happened could have written. */
    private static void unwrittenReads(List<Step> steps, Writers writers, Set<String> registers, Set<String> nodes,
                                       Findings found) {
        Map<String, Map.Entry<Object, Step>> firstOfUnwritten = new HashMap<>();
        for (Step s : steps) {
            if (!s.op().isOk()) {
                continue;
            }
            for (Micro m : s.micros()) {
                if (!m.op().equals("read") && !m.op().equals("check")) {
                    continue;
                }
                if (!registers.contains(m.key()) && !nodes.contains(m.key())) {
                    Map.Entry<Object, Step> first = firstOfUnwritten.putIfAbsent(m.key(), Map.entry(
                            m.value() == null ? ABSENT : m.value(), s));
                    if (first != null && !first.getKey().equals(m.value() == null ? ABSENT : m.value())) {
                        found.add("unwritten-disagree", s.who() + " read " + m.key() + " = " + show(m.value())
                                + ", but " + first.getValue().who() + " read " + show(first.getKey())
                                + ", and no transaction writes " + m.key(), s.op().invokeIndex(),
                                first.getValue().op().invokeIndex());
                    }
                    continue;
                }
                if (m.value() == null || writers.isInitial(m.key(), m.value())) {
                    continue;
                }
                Step w = writers.of(m.key(), m.value());
                if (w == null) {
                    found.add("unwritten-read", s.who() + " read " + m.key() + " = " + m.value()
                            + ", which no transaction wrote", s.op().invokeIndex());
                } else if (w.op().isFail()) {
                    found.add("aborted-read", s.who() + " read " + m.key() + " = " + m.value() + ", which only "
                            + w.who() + " wrote: that transaction failed, so none of it happened ("
                            + w.op().error() + ")", s.op().invokeIndex(), w.op().invokeIndex());
                }
            }
        }
    }

    /**
     * Reads of several znodes at once that saw part of a transaction's effects and, on another znode that transaction
     * wrote, a value that was certainly older than it: the transaction was seen half done.
     */
    private static void fracturedReads(List<Step> steps, Writers writers, Findings found) {
        for (Step r : steps) {
            if (r.isTxn() || !r.op().isOk() || r.micros().size() < 2) {
                continue;
            }
            Map<String, Object> seen = new LinkedHashMap<>();
            r.micros().forEach(m -> seen.put(m.key(), m.value() == null ? ABSENT : m.value()));
            Set<Step> reported = new HashSet<>();
            for (Map.Entry<String, Object> e : seen.entrySet()) {
                Step t = e.getValue() == ABSENT ? null : writers.of(e.getKey(), e.getValue());
                if (t == null || t.op().isFail() || reported.contains(t)) {
                    continue;
                }
                for (Map.Entry<String, Object> w : t.writes().entrySet()) {
                    Object other = seen.get(w.getKey());
                    if (w.getKey().equals(e.getKey()) || other == null || other.equals(w.getValue())) {
                        continue;
                    }
                    String older = olderThan(t, w.getKey(), other, r, writers);
                    if (older != null) {
                        reported.add(t);
                        found.add("fractured-read", r.who() + " saw " + e.getKey() + " = " + e.getValue()
                                + ", written by " + t.who() + ", but " + w.getKey() + " = " + show(other) + ", "
                                + older + ", though that transaction made it " + show(w.getValue()),
                                r.op().invokeIndex(), t.op().invokeIndex());
                        break;
                    }
                }
            }
        }
    }

    /**
     * A read sees its own session's transactions: on a znode the process's last acknowledged transaction wrote, a
     * read of the same process holds that value or a later one, never one certainly older (ZooKeeper serves a
     * session's requests in order).
     */
    private static void ownWrites(List<Step> steps, Writers writers, Findings found) {
        Map<Integer, Map<String, Step>> lastWriter = new HashMap<>();
        for (Step s : steps) {
            if (s.isTxn()) {
                if (s.op().isOk()) {
                    Map<String, Step> own = lastWriter.computeIfAbsent(s.op().process(), p -> new HashMap<>());
                    s.writes().keySet().forEach(k -> own.put(k, s));
                }
                continue;
            }
            if (!s.op().isOk()) {
                continue;
            }
            Map<String, Step> own = lastWriter.getOrDefault(s.op().process(), Map.of());
            for (Micro m : s.micros()) {
                Step t = own.get(m.key());
                Object seen = m.value() == null ? ABSENT : m.value();
                if (t == null || seen.equals(t.writes().get(m.key()))) {
                    continue;
                }
                String older = olderThan(t, m.key(), seen, s, writers);
                if (older != null) {
                    found.add("own-write", s.who() + " saw " + m.key() + " = " + show(seen) + ", " + older
                            + ", though " + t.who() + ", of the same session, had made it " + show(t.writes()
                            .get(m.key())), s.op().invokeIndex(), t.op().invokeIndex());
                    break;
                }
            }
        }
    }

    /**
     * Reads that certainly missed a transaction acknowledged before they began: the value they saw was replaced by a
     * transaction that began after its writer completed and completed before the read began. Allowed by ZooKeeper's
     * guarantees; fatal only when {@code strict} (through the search).
     */
    private static List<String> staleReads(List<Step> steps, Writers writers) {
        List<String> stale = new ArrayList<>();
        for (Step r : steps) {
            if (r.isTxn() || !r.op().isOk()) {
                continue;
            }
            for (Micro m : r.micros()) {
                if (m.value() == null) {
                    continue;
                }
                Step u = writers.of(m.key(), m.value());
                boolean initial = writers.isInitial(m.key(), m.value());
                if (u == null && !initial) {
                    continue;
                }
                Step newer = writers.overwrites(m.key()).stream().filter(w -> w.op().isOk() && w != u
                        && w.op().completeIndex() < r.op().invokeIndex() && (initial
                        || u.op().completeIndex() >= 0 && u.op().completeIndex() < w.op().invokeIndex()))
                        .findFirst().orElse(null);
                if (newer != null) {
                    stale.add(r.who() + " saw " + m.key() + " = " + m.value() + ", though " + newer.who()
                            + ", which made it " + show(newer.writes().get(m.key())) + ", was acknowledged before it "
                            + "began");
                    break;
                }
            }
        }
        return stale;
    }

    /**
     * Why {@code value} of {@code key}, seen by {@code read} beside {@code t}'s effects, is certainly older than
     * {@code t} (which wrote {@code key} otherwise), or null when some order explains it.
     */
    private static String olderThan(Step t, String key, Object value, Step read, Writers writers) {
        if (value == ABSENT) {
            for (Step d : writers.deletesOf(key)) {
                boolean beforeT = d.op().completeIndex() >= 0 && d.op().completeIndex() < t.op().invokeIndex();
                if (!d.op().isFail() && d != t && d.op().invokeIndex() < read.op().completeIndex() && !beforeT) {
                    return null; // a delete that may have come after t
                }
            }
            return "and no delete of " + key + " that could follow it";
        }
        if (writers.isInitial(key, value)) {
            return "its initial value";
        }
        Step u = writers.of(key, value);
        if (u != null && !u.op().isFail() && u.op().completeIndex() >= 0
                && u.op().completeIndex() < t.op().invokeIndex()) {
            return "written by " + u.who() + ", which completed before that transaction began";
        }
        return null;
    }

    /**
     * The history as the multi-register model reads it, indices and times kept: {@code txn}s of {@code [read k v]}
     * and {@code [write k v]}, absent znodes as {@link #ABSENT}; znodes no transaction writes left out.
     */
    private static History translate(List<Step> steps, Set<String> written) {
        List<Op> ops = new ArrayList<>();
        for (Step s : steps) {
            Operation op = s.op();
            List<List<Object>> invoked = model(invokeMicros(s), written, false);
            if (invoked.isEmpty()) {
                continue;
            }
            ops.add(new Op(op.invokeIndex(), op.process(), OpType.INVOKE, "txn", null, invoked, null,
                    op.invokeTime()));
            if (op.completeIndex() >= 0) {
                OpType type = op.isOk() ? OpType.OK : op.isFail() ? OpType.FAIL : OpType.INFO;
                ops.add(new Op(op.completeIndex(), op.process(), type, "txn", null,
                        op.isOk() ? model(s.micros(), written, true) : null, op.error(), op.completeTime()));
            }
        }
        ops.sort(Comparator.comparingLong(Op::index));
        return History.of(ops);
    }

    /** The micro-ops as invoked: a check's and a read's value not yet known. */
    private static List<Micro> invokeMicros(Step s) {
        return s.micros().stream().map(m -> m.op().equals("check") || m.op().equals("read")
                ? new Micro(m.op(), m.key(), null) : m).toList();
    }

    private static List<List<Object>> model(List<Micro> micros, Set<String> written, boolean completed) {
        List<List<Object>> out = new ArrayList<>();
        for (Micro m : micros) {
            if (!written.contains(m.key())) {
                continue;
            }
            switch (m.op()) {
                case "check" -> out.add(micro("read", m.key(), m.value()));
                case "read" -> out.add(micro("read", m.key(), completed && m.value() == null ? ABSENT : m.value()));
                case "set" -> out.add(micro("write", m.key(), m.value()));
                case "create" -> {
                    out.add(micro("read", m.key(), ABSENT));
                    out.add(micro("write", m.key(), m.value()));
                }
                case "delete" -> out.add(micro("write", m.key(), ABSENT));
                default -> throw new IllegalStateException("unknown micro-op " + m.op());
            }
        }
        return out;
    }

    private static List<Object> micro(String f, String key, Object value) {
        List<Object> l = new ArrayList<>(3);
        l.add(f);
        l.add(key);
        l.add(value);
        return l;
    }

    private static Step step(Operation op) {
        boolean txn = op.f().equals("txn");
        Object value = op.isOk() ? op.output() : op.input();
        List<?> list = Values.list(value, "the " + op.f() + "'s " + (op.isOk() ? "ok" : "invoke") + " value", op);
        List<Micro> micros = new ArrayList<>();
        Set<String> keys = new HashSet<>();
        for (Object item : list) {
            List<?> m = Values.list(item, "a micro-op", op);
            if (m.size() != 3 || !(m.get(0) instanceof String f) || !(m.get(1) instanceof String key)) {
                throw Values.malformed(op, "a micro-op must be [op key value], got " + m);
            }
            Set<String> allowed = txn ? Set.of("check", "set", "create", "delete") : Set.of("read");
            if (!allowed.contains(f)) {
                throw Values.malformed(op, "a " + op.f() + " holds " + String.join(", ", new java.util.TreeSet<>(
                        allowed)) + ", not " + f);
            }
            if (!keys.add(key)) {
                throw Values.malformed(op, "znode " + key + " appears twice in one " + op.f());
            }
            Object v = Values.normalise(m.get(2));
            boolean needsValue = f.equals("set") || f.equals("create") || (f.equals("check") && op.isOk());
            if (needsValue && !(v instanceof Long) || v != null && !(v instanceof Long)) {
                throw Values.malformed(op, "the value of [" + f + " " + key + "] must be an integer"
                        + (needsValue ? "" : " or null") + ", got " + v);
            }
            micros.add(new Micro(f, key, v));
        }
        if (micros.isEmpty()) {
            throw Values.malformed(op, "a " + op.f() + " holds at least one micro-op");
        }
        return new Step(op, List.copyOf(micros));
    }

    private static String show(Object v) {
        return v == null || v == ABSENT ? "absent" : String.valueOf(v);
    }

    /** Violations: every one counted, the first {@link MultiReport#SHOWN} kept. */
    private static final class Findings {
        final Capped<MultiViolation> all = new Capped<>(MultiReport.SHOWN);

        void add(String rule, String text, long... indices) {
            all.add(rule, new MultiViolation(rule, text, java.util.Arrays.stream(indices).boxed().toList()));
        }
    }

    private static String summary(MultiReport r, CheckResult lin) {
        StringBuilder s = new StringBuilder();
        if (r.violationCount() > 0) {
            s.append(r.violationCount()).append(" read(s) break what ZooKeeper promises of reads: ");
            s.append(String.join("; ", r.violations().stream().limit(3).map(v -> v.rule() + ": " + v.text())
                    .toList()));
            s.append(r.violationCount() > 3 ? "; and " + (r.violationCount() - 3) + " more" : "").append(". ");
        }
        if (lin.validity() != Validity.VALID) {
            s.append(r.strict() ? "Transactions and reads" : "Transactions").append(" as the multi-register model "
                    + "reads them: ").append(lin.summary()).append(' ');
        }
        s.append(r.txnsOk()).append(" transaction(s) acknowledged, ").append(r.txnsFailed()).append(" failed, ")
                .append(r.txnsIndeterminate()).append(" indeterminate, over ").append(r.registers().size())
                .append(" register(s) and ").append(r.nodes().size()).append(" node(s)");
        s.append(lin.validity() == Validity.VALID ? ", linearizable as one multi-register" : "");
        s.append("; ");
        if (r.multiReads() > 0) {
            s.append(r.multiReads()).append(" read(s) of several znodes in one read-only multi");
            s.append(r.singleReads() > 0 ? ", " + r.singleReads() + " of one znode" : "");
        } else {
            s.append(r.singleReads()).append(" read(s), each of one znode (no read-only multi: no read sees "
                    + "several znodes at one point, so no read can be fractured)");
        }
        s.append(r.strict() ? ", held to real time (strict)" : ", held to ZooKeeper's read guarantees");
        if (r.staleReads() > 0) {
            s.append("; ").append(r.staleReads()).append(" stale (").append(r.strict() ? "strict: failed"
                    : "allowed: a read, even after sync, is not linearizable").append("; first: ")
                    .append(r.stale().get(0)).append(')');
        }
        return s.append('.').toString();
    }
}
