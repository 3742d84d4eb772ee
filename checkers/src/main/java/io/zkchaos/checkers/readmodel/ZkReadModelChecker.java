package io.zkchaos.checkers.readmodel;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Checker;
import io.zkchaos.checkers.Checkers;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.linear.LinearizabilityChecker;
import io.zkchaos.checkers.model.Models;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * ZooKeeper's own read model, for register histories.
 *
 * <h2>History contract</h2>
 * (see {@code docs/history-conventions.md}) Per key ({@link Op#key()}): {@code write v}, {@code cas [expected new]},
 * {@code read} (a plain read, served by whichever server the session is connected to) and {@code sync-read}
 * ({@code sync()} then read). Every write and cas writes a value unique per key, so a read value identifies its
 * write; the initial value of every key is {@code init}. A process is one session.
 *
 * <h2>Verdict</h2>
 * <ul>
 *   <li>writes, cas and sync-reads must be linearizable: they are checked by the given linearizability checker
 *       (for a cas-register model) on the history with plain reads removed and sync-reads renamed {@code read};
 *       its result is this result's first part;</li>
 *   <li>plain reads are sequentially consistent per session (see {@link SessionOrder}): a session never reads a
 *       value older than one it has already seen (read or written), never a value no write or cas invoked (or only a
 *       failed one), never one whose write began after the read ended — each of these is a violation;</li>
 *   <li>a plain read may be stale (a newer value had been acknowledged before it began): reported as "stale read,
 *       allowed by ZooKeeper's guarantees", a failure only when {@code strict}.</li>
 * </ul>
 */
public final class ZkReadModelChecker implements Checker {

    private static final java.util.Set<String> REGISTER_FUNCTIONS = java.util.Set.of("write", "cas", "read",
            "sync-read");

    private final Object init;
    private final boolean strict;
    private final Checker linearizability;

    /**
     * @param init            every key's initial value (null for none)
     * @param strict          whether stale plain reads fail the run
     * @param linearizability checks writes, cas and sync-reads (as {@code read}) against a cas-register model
     */
    public ZkReadModelChecker(Object init, boolean strict, Checker linearizability) {
        this.init = init;
        this.strict = strict;
        this.linearizability = Objects.requireNonNull(linearizability, "linearizability");
    }

    /**
     * The read model with writes, cas and sync-reads checked by the WGL {@link LinearizabilityChecker} against
     * {@code Models.byName("cas-register", init)}.
     *
     * @param timeLimit budget of the linearizability search (null: none); past it that part is unknown
     */
    public static ZkReadModelChecker of(Object init, boolean strict, Duration timeLimit) {
        LinearizabilityChecker.Builder b = LinearizabilityChecker.builder(Models.byName("cas-register", init));
        if (timeLimit != null) {
            b.timeLimit(timeLimit);
        }
        return new ZkReadModelChecker(init, strict, b.build());
    }

    @Override
    public String name() {
        return "zk-read-model";
    }

    @Override
    public CheckResult check(History history) {
        if (history.operations().stream().noneMatch(op -> REGISTER_FUNCTIONS.contains(op.f()))) {
            return CheckResult.of(name(), Validity.UNKNOWN, "No write, cas, read or sync-read in the history: "
                    + "nothing to check (is this a register workload?).", null);
        }
        if (history.operations().stream().noneMatch(op -> op.isOk() && REGISTER_FUNCTIONS.contains(op.f()))) {
            return CheckResult.of(name(), Validity.UNKNOWN, "No write, cas, read or sync-read was acknowledged: "
                    + "nothing to check.", null);
        }
        CheckResult lin = Checkers.runSafely(linearizability, linearizablePart(history));
        SessionReport sessions = SessionOrder.analyse(history, init);
        ReadModelReport report = new ReadModelReport(strict, sessions.plainReads(), sessions.syncReads(),
                sessions.writes(), sessions.staleReads(), sessions.violations());
        Validity own = !sessions.violations().isEmpty() || (strict && !sessions.staleReads().isEmpty())
                ? Validity.INVALID : Validity.VALID;
        Validity validity = own.merge(lin.validity());
        StringBuilder s = new StringBuilder();
        if (lin.validity() != Validity.VALID) {
            s.append("writes, cas and sync-reads (a sync-read shows as read): ").append(lin.summary()).append(' ');
        }
        if (!sessions.violations().isEmpty()) {
            s.append(sessions.violations().size()).append(" read(s) break ZooKeeper's guarantees: ");
            sessions.violations().stream().limit(3).forEach(v -> s.append(v.explanation()).append("; "));
            s.setLength(s.length() - 2);
            s.append(sessions.violations().size() > 3 ? "; ... " : ". ");
        }
        s.append(sessions.writes()).append(" write(s)/cas and ").append(sessions.syncReads())
                .append(" sync-read(s) checked for linearizability (")
                .append(lin.validity() == Validity.VALID ? "linearizable" : lin.validity().name().toLowerCase())
                .append("); ").append(sessions.plainReads()).append(" plain read(s) checked per session, ")
                .append(sessions.staleReads().size()).append(" stale");
        if (!sessions.staleReads().isEmpty()) {
            s.append(strict ? " (strict: stale reads fail the run; first: " : " (allowed by ZooKeeper's guarantees; "
                    + "first: ").append(sessions.staleReads().get(0).explanation()).append(')');
        }
        s.append('.');
        return new CheckResult(name(), validity, s.toString(), report, List.of(lin));
    }

    /** The history of writes, cas and sync-reads (renamed {@code read}), with their indexes and times kept. */
    static History linearizablePart(History history) {
        List<Op> ops = new ArrayList<>();
        for (Op op : history.ops()) {
            if (op.isNemesis()) {
                continue;
            }
            switch (op.f()) {
                case "write", "cas" -> ops.add(op);
                case "sync-read" -> ops.add(new Op(op.index(), op.process(), op.type(), "read", op.key(), op.value(),
                        op.error(), op.time()));
                default -> {
                }
            }
        }
        return History.of(ops);
    }
}
