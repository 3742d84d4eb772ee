package io.zkchaos.checkers.churn;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Checker;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.Values;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.checkers.history.Operation;
import io.zkchaos.checkers.state.FinalStateChecker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Session churn ({@code --churn N}): ZooKeeper's promise about ephemerals, judged on many short sessions. The
 * ephemerals of a session that was closed or expired are deleted; the acknowledged ephemerals of a live session exist.
 *
 * <h2>History contract</h2>
 * (see {@code docs/history-conventions.md}) Each churn session is a process of its own from {@link #PROCESS_BASE}
 * (below {@link #READ_PROCESS_BASE}):
 * <ul>
 *   <li>{@value #OPEN}, invoked with {@code {"lane": l, "timeoutMs": t}}: ok with {@code {"session": "0x...",
 *       "timeoutMs": negotiated}}; fail or info when it did not connect (its client is then closed);</li>
 *   <li>{@value #CREATE}, invoked with {@code {"path": p, "sequential": b}}: ok with {@code {"path": created}}; fail or
 *       info otherwise;</li>
 *   <li>its end, one of {@value #CLOSE} (ok once the servers acknowledged the close, else fail or info: its client is
 *       closed either way), {@value #EXPIRE} (its connection silenced and its client stopped without a close: ok at
 *       the moment it was abandoned) and {@value #CRASH} (its connection closed as a killed client's would be and its
 *       client stopped without a close: ok at that moment);</li>
 *   <li>{@value #ALIVE} (a session kept to the end only), after the reads: ok when the session still answered.</li>
 * </ul>
 * After the final heal the harness reads the churn root of every server, as processes from
 * {@link #READ_PROCESS_BASE}: {@value #READ}, invoked with {@code {"node": n}}, ok with {@code {"node": n,
 * "children": {name: owner}}} (owner as {@code 0x...}), info when the server could not be read.
 *
 * <h2>Verdict</h2>
 * Invalid when a server's read holds an ephemeral of an ended session and the read began at least the session's
 * timeout + {@link #EXPIRY_MARGIN} after both the session's end and the final heal (the margin covers a leader
 * election after the heal, which restarts every session's clock, and the tick the expiry waits for), or when a read
 * lacks an ephemeral whose create was acknowledged before the read began, of a session that answered after the read
 * ended. An ephemeral whose owner no recorded session is (a session whose open was not answered) is judged against
 * the last such open. Unknown when no server was read, when a server's last read was not ok, or when an ephemeral
 * could not be judged (its bound had not passed, or its session neither ended nor answered after the read). Else
 * valid.
 */
public final class ChurnEphemeralsChecker implements Checker {

    /** The checker's name. */
    public static final String NAME = "churn-ephemerals";
    /** Churn sessions are processes from here up. */
    public static final int PROCESS_BASE = 4_000_000;
    /** The churn root's reads are processes from here up. */
    public static final int READ_PROCESS_BASE = 4_900_000;
    public static final String OPEN = "churn-open";
    public static final String CREATE = "churn-create";
    public static final String CLOSE = "churn-close";
    public static final String EXPIRE = "churn-expire";
    public static final String CRASH = "churn-crash";
    public static final String ALIVE = "churn-alive";
    public static final String READ = "churn-read";
    /** The end functions, by the way each names. */
    public static final Map<String, String> ENDS = Map.of(CLOSE, "close", EXPIRE, "expire", CRASH, "crash");
    /** Beyond the session timeout, how long an ended session's ephemerals may live: the final-state checker's. */
    public static final Duration EXPIRY_MARGIN = FinalStateChecker.EXPIRY_MARGIN;

    private static final Set<String> SESSION_FUNCTIONS = Set.of(OPEN, CREATE, CLOSE, EXPIRE, CRASH, ALIVE);

    @Override
    public String name() {
        return NAME;
    }

    /** What one churn session did, as its process recorded it. */
    private static final class Session {
        String id;
        long timeoutNanos = -1;
        Operation end;
        final List<Operation> created = new ArrayList<>();
        final List<Operation> alive = new ArrayList<>();
        Operation open;
    }

    @Override
    public CheckResult check(History history) {
        Map<Integer, Session> byProcess = new TreeMap<>();
        Map<String, Operation> readOfNode = new TreeMap<>();
        for (Operation op : history.operations()) {
            if (op.process() >= READ_PROCESS_BASE && READ.equals(op.f())) {
                String node = Values.stringField(Values.map(op.input(), "a churn read's invoke value", op), "node");
                Operation before = readOfNode.get(node);
                if (before == null || before.invokeIndex() < op.invokeIndex()) {
                    readOfNode.put(node, op);
                }
            } else if (op.process() >= PROCESS_BASE && op.process() < READ_PROCESS_BASE
                    && SESSION_FUNCTIONS.contains(op.f())) {
                Session s = byProcess.computeIfAbsent(op.process(), p -> new Session());
                switch (op.f()) {
                    case OPEN -> {
                        s.open = op;
                        if (op.isOk()) {
                            Map<?, ?> out = Values.map(op.output(), "a churn open's result", op);
                            s.id = Values.stringField(out, "session");
                            s.timeoutNanos = Values.longField(out, "timeoutMs", "a churn open's result", op)
                                    * 1_000_000L;
                        }
                    }
                    case CREATE -> {
                        if (op.isOk()) {
                            s.created.add(op);
                        }
                    }
                    case ALIVE -> {
                        if (op.isOk()) {
                            s.alive.add(op);
                        }
                    }
                    default -> s.end = op;
                }
            }
        }
        long margin = Values.nanos(EXPIRY_MARGIN);
        Map<String, Long> ended = new TreeMap<>();
        Map<String, Session> byId = new HashMap<>();
        long created = 0;
        long unansweredOpenEnd = -1;
        long longestTimeout = 0;
        for (Session s : byProcess.values()) {
            if (s.end != null) {
                ended.merge(ENDS.get(s.end.f()), 1L, Long::sum);
            }
            created += s.created.size();
            if (s.id != null) {
                byId.put(s.id, s);
                longestTimeout = Math.max(longestTimeout, s.timeoutNanos);
            } else if (s.open != null) {
                unansweredOpenEnd = Math.max(unansweredOpenEnd, s.open.completeTime());
                if (s.open.input() instanceof Map<?, ?> in && in.get("timeoutMs") instanceof Number t) {
                    longestTimeout = Math.max(longestTimeout, t.longValue() * 1_000_000L);
                }
            }
        }
        long heal = finalHeal(history);
        long live = byId.values().stream().filter(s -> !s.alive.isEmpty()).count();

        List<ChurnReport.Breach> left = new ArrayList<>();
        List<ChurnReport.Breach> missing = new ArrayList<>();
        List<String> unread = new ArrayList<>();
        int unjudged = 0;
        for (Map.Entry<String, Operation> e : readOfNode.entrySet()) {
            String node = e.getKey();
            Operation read = e.getValue();
            if (!read.isOk()) {
                unread.add(node + " (" + (read.error() == null ? "no answer" : read.error()) + ")");
                continue;
            }
            Map<?, ?> children = Values.map(Values.map(read.output(), "a churn read's result", read).get("children"),
                    "a churn read's children", read);
            for (Map.Entry<?, ?> child : new TreeMap<>(children).entrySet()) {
                String name = String.valueOf(child.getKey());
                String owner = String.valueOf(child.getValue());
                Session s = byId.get(owner);
                if (s != null && aliveAfter(s, read)) {
                    continue;
                }
                long endTime = s == null ? unansweredOpenEnd : s.end == null ? -1 : s.end.completeTime();
                long timeout = s == null ? longestTimeout : s.timeoutNanos;
                if (endTime < 0 || read.invokeTime() < 0) {
                    unjudged++;
                    continue;
                }
                long due = Math.max(endTime, heal) + timeout + margin;
                if (read.invokeTime() < due) {
                    unjudged++;
                    continue;
                }
                String how = s == null ? "a session whose open was not answered" : "session " + owner + " (ended by "
                        + ENDS.get(s.end.f()) + " at index " + s.end.completeIndex() + ")";
                left.add(new ChurnReport.Breach(node, name, owner, read.invokeIndex(), "ephemeral " + name + " of "
                        + how + " still on " + node + " (read at index " + read.invokeIndex() + ") "
                        + Values.human(read.invokeTime() - Math.max(endTime, heal)) + " after "
                        + (heal > endTime ? "the final heal" : "the session ended") + ", beyond its timeout "
                        + Values.human(timeout) + " + margin " + Values.human(margin)));
            }
            for (Session s : byId.values()) {
                if (!aliveAfter(s, read)) {
                    continue;
                }
                for (Operation c : s.created) {
                    String path = Values.stringField(Values.map(c.output(), "a churn create's result", c), "path");
                    String name = path.substring(path.lastIndexOf('/') + 1);
                    if (c.completeIndex() < read.invokeIndex() && !children.containsKey(name)) {
                        missing.add(new ChurnReport.Breach(node, name, s.id, read.invokeIndex(), "ephemeral " + path
                                + " of live session " + s.id + " (created at index " + c.completeIndex()
                                + ") missing from " + node + " (read at index " + read.invokeIndex()
                                + "), and the session answered after the read"));
                    }
                }
            }
        }
        ChurnReport report = new ChurnReport(ended, live, created, left, missing, unjudged, unread,
                EXPIRY_MARGIN.toMillis());
        String sessions = byProcess.size() + " churn session(s), ended by " + (ended.isEmpty() ? "none"
                : ended.entrySet().stream().map(x -> x.getKey() + " " + x.getValue())
                .collect(Collectors.joining(", "))) + ", " + live + " live at the reads; " + created
                + " ephemeral(s) acknowledged";
        if (!left.isEmpty() || !missing.isEmpty()) {
            List<ChurnReport.Breach> all = new ArrayList<>(left);
            all.addAll(missing);
            return CheckResult.of(NAME, Validity.INVALID, left.size() + " ephemeral(s) of ended sessions left, "
                    + missing.size() + " acknowledged ephemeral(s) of live sessions missing: " + all.stream().limit(3)
                    .map(ChurnReport.Breach::explanation).collect(Collectors.joining("; "))
                    + (all.size() > 3 ? "; ..." : "") + " (" + sessions + ")", report);
        }
        if (readOfNode.isEmpty()) {
            return CheckResult.of(NAME, Validity.UNKNOWN, "no churn read to check (" + sessions + ")", report);
        }
        if (!unread.isEmpty() || unjudged > 0) {
            return CheckResult.of(NAME, Validity.UNKNOWN, (unread.isEmpty() ? "" : "not read: "
                    + String.join(", ", unread) + "; ") + (unjudged == 0 ? "" : unjudged
                    + " ephemeral(s) read before they were due to be gone, or of sessions neither ended nor live; ")
                    + sessions, report);
        }
        return CheckResult.of(NAME, Validity.VALID, "no ephemeral of an ended session left on " + readOfNode.size()
                + " server(s), every acknowledged ephemeral of a live session held (" + sessions + ")", report);
    }

    /** Whether {@code s} answered after {@code read} ended: alive when it was read. */
    private static boolean aliveAfter(Session s, Operation read) {
        return s.alive.stream().anyMatch(a -> a.invokeIndex() > read.completeIndex());
    }

    /** The time of the last completed nemesis heal, 0 without one. */
    private static long finalHeal(History history) {
        long last = 0;
        for (Op op : history.nemesisOps()) {
            if (op.type() == OpType.INFO && "heal".equals(op.f())) {
                last = Math.max(last, op.time());
            }
        }
        return last;
    }
}
