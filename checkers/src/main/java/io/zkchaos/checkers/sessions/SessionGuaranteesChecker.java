package io.zkchaos.checkers.sessions;

import io.zkchaos.checkers.Capped;
import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Checker;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.Values;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.checkers.history.Operation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The promises of ZooKeeper sessions and their ephemeral znodes, for {@code sessions} histories.
 *
 * <h2>History contract</h2>
 * (see {@code docs/history-conventions.md}) A process is one session. {@code open}: ok value
 * {@code {"session": "0x..", "timeout": ms}} (the negotiated timeout). {@code create} (key: the ephemeral's name)
 * makes an ephemeral znode owned by the session. {@code read} (synced): ok value {@code {"children": [names],
 * "owners": {name: "0x.."}}}. {@code close}: ok when the servers acknowledged the session's close. {@code expire}: ok
 * when another handle attached to the session and closed it. {@code cut}: the workload silenced the session's own
 * relay, its only way to the servers, from the invoke to the completion (ok value {@code {"silenced": ms}}): the
 * session was cut off from every server for that long, and the servers expire it when that is longer than its
 * timeout. {@code event} (invoke and ok at once, value
 * {@code {"state": "SyncConnected" | "Disconnected" | "Expired" | "Closed"}} or {@code {"type": ..., "path": ...}}
 * for a watch notification): what the client delivered, in the order it delivered it; an event that arrived while an
 * operation was in flight is recorded right after it, its value naming that operation in {@code "during"}. After an
 * {@code info} a process issues no more operations, but its session's events are still recorded until it ends.
 *
 * <h2>Verdict</h2>
 * Invalid when:
 * <ul>
 *   <li>{@code closed-ephemeral}: a read invoked after a session's close (or another handle's close of it) was
 *       acknowledged lists an ephemeral of that session;</li>
 *   <li>{@code expiry-bound}: a session cut off from every server (its client process frozen or killed, every
 *       client link cut, or its own relay silenced by the workload: {@code cut}) for longer than its timeout plus
 *       {@link #EXPIRY_SLACK} has an ephemeral listed by a read that began more than its timeout plus {@link #BOUND}
 *       after the cut took effect. Not held to it (and listed as
 *       excused): a cut-off that ended sooner (the session may have lived on), one another fault follows within the
 *       bound (a new ZooKeeper leader restarts every session's clock; for a cut of the workload's own, also a nemesis
 *       action that began less than the bound before it), a history without times;</li>
 *   <li>{@code event-order}: a session's first event is not SyncConnected (or Closed: a handle closed before it
 *       connected), a state repeats without a change between,
 *       or anything follows Expired or Closed (a 3.9 client may go from SyncConnected straight to Expired: it keeps a
 *       clock of its own and declares its session expired when it has heard nothing for 4/3 of the timeout);</li>
 *   <li>{@code after-end}: an operation invoked after its session ended (Expired or Closed delivered, close or expire
 *       acknowledged) succeeded;</li>
 *   <li>{@code owner}: a read shows an ephemeral a session created owned by another session.</li>
 * </ul>
 * An {@code Expired} is never taken as proof that the servers expired a session (the client's own clock may say so
 * first): the expiry bound is judged from the cut, which the nemesis or the workload records. Unknown when no session
 * opened or no read was acknowledged.
 *
 * <h2>Promises tested</h2>
 * ({@link SessionsReport#promises()}) A promise counts as tested for a session only when a read acknowledged later
 * could have seen the session's ephemerals: {@code closed} (sessions whose own close was acknowledged, with an
 * ephemeral, and a read invoked after the close), {@code closed-by-other} (the same for an acknowledged
 * {@code expire}), {@code expired} (sessions held to the expiry bound with a read invoked past their timeout plus
 * the bound), {@code ephemerals} (the acknowledged ephemerals of the sessions counted in those three).
 */
public final class SessionGuaranteesChecker implements Checker {

    public static final String NAME = "session-guarantees";

    /**
     * How long past its session timeout a cut-off session's ephemerals may still be read: the servers expire sessions
     * on their tick (200 ms in the harness), the close is a transaction the quorum commits, and a loaded machine
     * delays both.
     */
    public static final Duration BOUND = Duration.ofSeconds(3);

    /**
     * A cut-off session is held to the bound only when the cut lasted its timeout plus this: then it cannot have
     * reconnected in time to keep its session (ZooKeeper rounds expiry up to the next tick).
     */
    public static final Duration EXPIRY_SLACK = Duration.ofSeconds(1);

    private static final Set<String> STATES = Set.of("SyncConnected", "ConnectedReadOnly", "Disconnected", "Expired",
            "Closed");

    @Override
    public String name() {
        return NAME;
    }

    /** One process's session, as its history shows it. */
    private static final class Session {
        final int process;
        String id;
        long timeoutMs = -1;
        Operation open;
        final List<Operation> creates = new ArrayList<>();
        final List<Operation> ops = new ArrayList<>();
        final List<Operation> events = new ArrayList<>();
        long endIndex = Long.MAX_VALUE;
        String ended;
        boolean expiredEvent;
        boolean cutByWorkload;

        Session(int process) {
            this.process = process;
        }

        void end(long index, String why) {
            if (index < endIndex) {
                endIndex = index;
                ended = why;
            }
        }

        String name() {
            return "process " + process + (id == null ? "" : " (session " + id + ")");
        }
    }

    /** A read of the ephemerals: the names it lists and their owners where it learned them. */
    private record Read(Operation op, List<String> children, Map<String, String> owners) {
    }

    /**
     * A fault that cut sessions off from every server, from {@code fromIndex}/{@code fromNanos} on, until
     * {@code untilNanos}; {@code nextFault} names the nemesis action that began at {@code nextFaultNanos}, the first
     * after the cut (for a cut of the workload's own: the first since {@link #BOUND} before it).
     */
    private record Cut(String fault, long fromIndex, long fromNanos, long untilNanos, List<Integer> processes,
                       long nextFaultNanos, String nextFault) {
    }

    @Override
    public CheckResult check(History history) {
        Map<Integer, Session> sessions = new LinkedHashMap<>();
        Map<String, Session> creator = new HashMap<>();
        List<Read> reads = new ArrayList<>();
        List<Operation> ownCuts = new ArrayList<>();
        int eventCount = 0;
        for (Operation op : history.operations()) {
            switch (op.f()) {
                case "open", "create", "close", "expire", "read", "event", "cut" -> {
                }
                default -> {
                    continue;
                }
            }
            Session s = sessions.computeIfAbsent(op.process(), Session::new);
            switch (op.f()) {
                case "open" -> {
                    s.ops.add(op);
                    if (op.isOk()) {
                        Map<?, ?> v = Values.map(op.output(), "the open's ok value", op);
                        s.id = Values.stringField(v, "session");
                        s.timeoutMs = Values.longField(v, "timeout", "the open's ok value", op);
                        s.open = op;
                    }
                }
                case "create" -> {
                    s.ops.add(op);
                    if (op.key() == null) {
                        throw Values.malformed(op, "a create names its ephemeral as the key");
                    }
                    if (!op.isFail()) {
                        s.creates.add(op);
                        creator.put(op.key(), s);
                    }
                }
                case "close", "expire" -> {
                    s.ops.add(op);
                    if (op.isOk()) {
                        s.end(op.completeIndex(), (op.f().equals("close") ? "its close" : "another handle's close")
                                + " was acknowledged at index " + op.completeIndex());
                    }
                }
                case "read" -> {
                    s.ops.add(op);
                    if (op.isOk()) {
                        reads.add(read(op));
                    }
                }
                case "cut" -> {
                    s.ops.add(op);
                    s.cutByWorkload = true;
                    ownCuts.add(op);
                }
                default -> {
                    eventCount++;
                    s.events.add(op);
                    String state = Values.stringField(Values.map(op.input(), "the event's value", op), "state");
                    if ("Expired".equals(state) || "Closed".equals(state)) {
                        s.expiredEvent |= state.equals("Expired");
                        s.end(op.invokeIndex(), "its client delivered " + state + " at index " + op.invokeIndex());
                    }
                }
            }
        }
        Capped<SessionViolation> found = new Capped<>(SessionsReport.SHOWN);
        closedEphemerals(sessions.values(), reads, found);
        List<String> excused = new ArrayList<>();
        Set<Integer> expiredFollowed = new java.util.TreeSet<>();
        int judged = expiryBound(history, sessions, ownCuts, reads, excused, expiredFollowed, found);
        for (Session s : sessions.values()) {
            eventOrder(s, found);
            afterEnd(s, found);
        }
        owners(reads, creator, found);
        int opened = (int) sessions.values().stream().filter(s -> s.open != null).count();
        Set<Integer> closedFollowed = followedAfter(sessions.values(), "close", reads);
        Set<Integer> otherFollowed = followedAfter(sessions.values(), "expire", reads);
        Set<Integer> followed = new java.util.HashSet<>(closedFollowed);
        followed.addAll(otherFollowed);
        followed.addAll(expiredFollowed);
        SessionsReport report = new SessionsReport(opened,
                count(sessions, "close"), count(sessions, "expire"),
                (int) sessions.values().stream().filter(s -> s.expiredEvent).count(),
                (int) sessions.values().stream().flatMap(s -> s.creates.stream()).filter(Operation::isOk).count(),
                reads.size(), eventCount, judged, excused, BOUND.toMillis(), found.count(), found.byKind(),
                found.kept(), (int) sessions.values().stream().filter(s -> s.cutByWorkload).count(),
                closedFollowed.size(), otherFollowed.size(), expiredFollowed.size(),
                (int) followed.stream().flatMap(p -> sessions.get(p).creates.stream()).filter(Operation::isOk)
                        .count());
        Validity validity = found.count() > 0 ? Validity.INVALID
                : opened == 0 || reads.isEmpty() ? Validity.UNKNOWN : Validity.VALID;
        return CheckResult.of(NAME, validity, summary(validity, report), report);
    }

    private static int count(Map<Integer, Session> sessions, String f) {
        return (int) sessions.values().stream().filter(s -> s.ops.stream().anyMatch(o -> o.f().equals(f)
                && o.isOk())).count();
    }

    /**
     * The sessions ended by an acknowledged {@code f} ({@code close} or {@code expire}) that had an acknowledged
     * ephemeral and whose end an acknowledged read invoked later could see: their promise was put to the test.
     */
    private static Set<Integer> followedAfter(Iterable<Session> sessions, String f, List<Read> reads) {
        Set<Integer> followed = new java.util.TreeSet<>();
        for (Session s : sessions) {
            if (s.creates.stream().noneMatch(Operation::isOk)) {
                continue;
            }
            s.ops.stream().filter(o -> o.f().equals(f) && o.isOk()).findFirst().ifPresent(end -> {
                if (reads.stream().anyMatch(r -> r.op().invokeIndex() > end.completeIndex())) {
                    followed.add(s.process);
                }
            });
        }
        return followed;
    }

    /** No read invoked after a session's close was acknowledged lists one of its ephemerals. */
    private static void closedEphemerals(Iterable<Session> sessions, List<Read> reads, Capped<SessionViolation> found) {
        for (Session s : sessions) {
            Operation close = s.ops.stream().filter(o -> (o.f().equals("close") || o.f().equals("expire"))
                    && o.isOk()).findFirst().orElse(null);
            if (close == null) {
                continue;
            }
            for (Read r : reads) {
                if (r.op().invokeIndex() < close.completeIndex()) {
                    continue;
                }
                for (Operation c : s.creates) {
                    if (r.children().contains(c.key())) {
                        add(found, new SessionViolation("closed-ephemeral", s.process, reader(r) + " lists " + c.key()
                                + ", an ephemeral of " + s.name() + ", though " + (close.f().equals("close")
                                ? "that session's close" : "another handle's close of that session")
                                + " was acknowledged at index " + close.completeIndex() + ", before the read began",
                                List.of(close.completeIndex(), r.op().invokeIndex())));
                        break;
                    }
                }
            }
        }
    }

    /**
     * A session cut off from every server long enough that it must expire has its ephemerals gone from every read
     * that begins later than its timeout plus {@link #BOUND} after the cut took effect.
     *
     * @param ownCuts  the workload's {@code cut}s of its sessions' own relays
     * @param followed gets the process of each judged session that a read invoked past its deadline followed
     * @return how many cut-off sessions were judged
     */
    private static int expiryBound(History history, Map<Integer, Session> sessions, List<Operation> ownCuts,
                                   List<Read> reads, List<String> excused, Set<Integer> followed,
                                   Capped<SessionViolation> found) {
        int judged = 0;
        List<Cut> all = cuts(history, sessions);
        for (Operation c : ownCuts) {
            if (!c.isOk()) {
                excused.add(sessions.get(c.process()).name() + " cut off by the workload: the cut (index "
                        + c.invokeIndex() + ") did not end ok, so how long it lasted is unknown");
                continue;
            }
            Session s = sessions.get(c.process());
            Op next = c.invokeTime() < 0 || s.timeoutMs < 0 ? null : leaderMayChange(history,
                    c.invokeTime() - BOUND.toNanos(), c.invokeTime() + s.timeoutMs * 1_000_000L + BOUND.toNanos());
            all.add(new Cut(OWN_CUT, c.invokeIndex(), c.invokeTime(), c.completeTime(), List.of(c.process()),
                    next == null ? Long.MAX_VALUE : next.time(), next == null ? null : faultName(next)));
        }
        for (Cut cut : all) {
            for (int p : cut.processes()) {
                Session s = sessions.get(p);
                if (s == null || s.open == null || s.open.completeIndex() > cut.fromIndex()
                        || s.endIndex < cut.fromIndex() || s.creates.isEmpty()) {
                    continue; // no session then, or nothing of its to go
                }
                long timeout = s.timeoutMs * 1_000_000L;
                long deadline = cut.fromNanos() + timeout + BOUND.toNanos();
                if (cut.fromNanos() < 0) {
                    excused.add(s.name() + " cut off by " + cut.fault() + ": the history has no times");
                    continue;
                }
                if (cut.untilNanos() - cut.fromNanos() < timeout + EXPIRY_SLACK.toNanos()) {
                    excused.add(s.name() + " cut off by " + cut.fault() + " for " + Values.human(cut.untilNanos()
                            - cut.fromNanos()) + ", less than its timeout plus " + Values.human(EXPIRY_SLACK.toNanos())
                            + ": it may have kept its session");
                    continue;
                }
                if (cut.nextFaultNanos() <= deadline) {
                    excused.add(s.name() + " cut off by " + cut.fault() + ": " + (cut.nextFault() == null
                            ? "another fault" : cut.nextFault()) + " began " + (cut.nextFaultNanos() < cut.fromNanos()
                            ? Values.human(cut.fromNanos() - cut.nextFaultNanos()) + " before the cut"
                            : Values.human(cut.nextFaultNanos() - cut.fromNanos()) + " after the cut")
                            + ", within the bound (a new ZooKeeper leader restarts every session's clock)");
                    continue;
                }
                judged++;
                for (Read r : reads) {
                    if (r.op().invokeTime() <= deadline) {
                        continue;
                    }
                    followed.add(s.process);
                    Operation seen = s.creates.stream().filter(c -> r.children().contains(c.key())).findFirst()
                            .orElse(null);
                    if (seen != null) {
                        add(found, new SessionViolation("expiry-bound", s.process, reader(r) + ", "
                                + Values.human(r.op().invokeTime() - cut.fromNanos()) + " after " + cut.fault()
                                + " cut " + s.name() + " off (index " + cut.fromIndex() + "), lists its ephemeral "
                                + seen.key() + ": more than its timeout of " + s.timeoutMs + " ms plus "
                                + Values.human(BOUND.toNanos()), List.of(cut.fromIndex(), r.op().invokeIndex())));
                        break;
                    }
                }
            }
        }
        return judged;
    }

    /**
     * The cuts the nemesis recorded: {@code client-partition} cuts every session; a pause or a kill naming client
     * processes ({@code p<process>}) cuts those, a pause until the next heal begins, a kill for good.
     */
    private static List<Cut> cuts(History history, Map<Integer, Session> sessions) {
        List<Op> nemesis = history.nemesisOps();
        List<Cut> cuts = new ArrayList<>();
        for (int i = 0; i < nemesis.size(); i++) {
            Op o = nemesis.get(i);
            if (o.type() != OpType.INFO || "heal".equals(o.f()) || !(o.value() instanceof Map<?, ?> v)
                    || !(v.get("fault") instanceof String fault)) {
                continue;
            }
            List<Integer> processes = new ArrayList<>();
            if (fault.equals("client-partition")) {
                processes.addAll(sessions.keySet());
            } else if ((fault.startsWith("pause") || fault.startsWith("kill")) && v.get("nodes") instanceof List<?> n) {
                for (Object node : n) {
                    String name = String.valueOf(node);
                    if (name.matches("p\\d+")) {
                        processes.add(Integer.parseInt(name.substring(1)));
                    }
                }
            }
            if (processes.isEmpty()) {
                continue;
            }
            long until = Long.MAX_VALUE;
            long nextFault = Long.MAX_VALUE;
            for (int j = i + 1; j < nemesis.size(); j++) {
                Op h = nemesis.get(j);
                if (h.type() != OpType.INVOKE) {
                    continue;
                }
                if ("heal".equals(h.f())) {
                    if (!fault.startsWith("kill") && until == Long.MAX_VALUE) {
                        until = h.time() < 0 ? -1 : h.time();
                    }
                } else {
                    nextFault = h.time() < 0 ? Long.MAX_VALUE : h.time();
                    break;
                }
            }
            cuts.add(new Cut(fault, o.index(), o.time(), until, processes, nextFault, null));
        }
        return cuts;
    }

    /** How a cut of the workload's own (its session's relay silenced) is named. */
    private static final String OWN_CUT = "the workload";

    /**
     * The first nemesis action invoked from {@code fromNanos} to {@code toNanos} that may give ZooKeeper a new
     * leader: a fault, or a heal while a fault was in force (a heal that ends nothing, such as the final heal of a
     * run without faults, changes nothing); null if none.
     */
    private static Op leaderMayChange(History history, long fromNanos, long toNanos) {
        boolean inForce = false;
        for (Op o : history.nemesisOps()) {
            if (o.type() != OpType.INVOKE || o.time() < 0) {
                continue;
            }
            boolean heal = "heal".equals(o.f());
            if (o.time() > toNanos) {
                return null;
            }
            if (o.time() >= fromNanos && (!heal || inForce)) {
                return o;
            }
            inForce = !heal;
        }
        return null;
    }

    private static String faultName(Op invoke) {
        return "heal".equals(invoke.f()) ? "a heal" : invoke.f();
    }

    /**
     * The client delivers a session's state changes in an order it can reach: SyncConnected first, no state twice in
     * a row, nothing after Expired or Closed.
     */
    private static void eventOrder(Session s, Capped<SessionViolation> found) {
        String last = null;
        Operation terminal = null;
        for (Operation e : s.events) {
            Map<?, ?> v = Values.map(e.input(), "the event's value", e);
            String state = Values.stringField(v, "state");
            String what = state != null ? state : Values.stringField(v, "type") + " " + Values.stringField(v, "path");
            if (terminal != null) {
                add(found, new SessionViolation("event-order", s.process, s.name() + " was delivered " + what
                        + " at index " + e.invokeIndex() + ", after " + Values.stringField(Values.map(terminal.input(),
                        "the event's value", terminal), "state") + " at index " + terminal.invokeIndex()
                        + ": nothing follows the end of a session", List.of(terminal.invokeIndex(), e.invokeIndex())));
                return;
            }
            if (state == null || !STATES.contains(state)) {
                continue;
            }
            if (last == null && !state.equals("SyncConnected") && !state.equals("ConnectedReadOnly")
                    && !state.equals("Closed")) {
                add(found, new SessionViolation("event-order", s.process, s.name() + " was first delivered " + state
                        + " at index " + e.invokeIndex() + ": a session's first event is SyncConnected (or Closed, "
                        + "for a handle closed before it connected)",
                        List.of(e.invokeIndex())));
            } else if (state.equals(last)) {
                add(found, new SessionViolation("event-order", s.process, s.name() + " was delivered " + state
                        + " twice in a row (index " + e.invokeIndex() + "): the client reports changes of state",
                        List.of(e.invokeIndex())));
            }
            last = state;
            if (state.equals("Expired") || state.equals("Closed")) {
                terminal = e;
            }
        }
    }

    /** Nothing a session does after it ended succeeds. */
    private static void afterEnd(Session s, Capped<SessionViolation> found) {
        for (Operation op : s.ops) {
            if (op.invokeIndex() > s.endIndex && op.isOk()) {
                add(found, new SessionViolation("after-end", s.process, s.name() + "'s " + op.f()
                        + (op.key() == null ? "" : " of " + op.key()) + " (index " + op.invokeIndex() + "-"
                        + op.completeIndex() + ") succeeded, though " + s.ended + ", before it began",
                        List.of(s.endIndex, op.invokeIndex())));
                return;
            }
        }
    }

    /** Every ephemeral is owned by the session that created it. */
    private static void owners(List<Read> reads, Map<String, Session> creator, Capped<SessionViolation> found) {
        Set<String> reported = new java.util.HashSet<>();
        for (Read r : reads) {
            r.owners().forEach((name, owner) -> {
                Session s = creator.get(name);
                if (s != null && s.id != null && !s.id.equals(owner) && reported.add(name)) {
                    add(found, new SessionViolation("owner", s.process, reader(r) + " found " + name + ", which "
                            + s.name() + " created, owned by session " + owner + ": the create did not happen in "
                            + "the session that reported it", List.of(r.op().invokeIndex())));
                }
            });
        }
    }

    private static void add(Capped<SessionViolation> found, SessionViolation v) {
        found.add(v.rule(), v);
    }

    private static Read read(Operation op) {
        Map<?, ?> v = Values.map(op.output(), "the read's ok value", op);
        List<String> children = Values.list(v.get("children"), "the read's \"children\"", op).stream()
                .map(String::valueOf).toList();
        Map<String, String> owners = new LinkedHashMap<>();
        if (v.get("owners") != null) {
            Values.map(v.get("owners"), "the read's \"owners\"", op).forEach((k, o) -> owners.put(String.valueOf(k),
                    String.valueOf(o)));
        }
        return new Read(op, children, owners);
    }

    private static String reader(Read r) {
        return "the read of process " + r.op().process() + " (index " + r.op().invokeIndex() + ")";
    }

    private static String summary(Validity validity, SessionsReport r) {
        StringBuilder s = new StringBuilder();
        if (r.violationCount() > 0) {
            s.append(r.violationCount()).append(" violation(s): ").append(String.join("; ", r.violations().stream()
                    .limit(3).map(v -> v.rule() + ": " + v.text()).toList()))
                    .append(r.violationCount() > 3 ? "; and " + (r.violationCount() - 3) + " more" : "").append(". ");
        } else if (validity == Validity.UNKNOWN) {
            s.append(r.sessions() == 0 ? "No session was opened: nothing to check. "
                    : "No read was acknowledged: nothing saw the ephemerals. ");
        }
        s.append(r.sessions()).append(" session(s): ").append(r.closed()).append(" closed, ").append(r.expiredByOp())
                .append(" closed by another handle, ").append(r.expiredEvents()).append(" told Expired; ")
                .append(r.ephemerals()).append(" ephemeral(s) created, ").append(r.reads()).append(" read(s), ")
                .append(r.events()).append(" event(s); ").append(r.cutOffJudged())
                .append(" cut-off session(s) held to timeout + ").append(Values.human(r.boundMillis() * 1_000_000L));
        if (r.cutByWorkload() > 0) {
            s.append(" (").append(r.cutByWorkload()).append(" cut off by the workload), ").append(r.expiredFollowed())
                    .append(" expired session(s) followed past the bound");
        }
        if (!r.cutOffExcused().isEmpty()) {
            s.append(", ").append(r.cutOffExcused().size()).append(" not (").append(r.cutOffExcused().get(0))
                    .append(r.cutOffExcused().size() > 1 ? "; and " + (r.cutOffExcused().size() - 1) + " more" : "")
                    .append(')');
        }
        return s.append('.').toString();
    }
}
