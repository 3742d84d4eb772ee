package io.zkchaos.checkers.watches;

import io.zkchaos.checkers.Values;
import io.zkchaos.checkers.history.Operation;
import io.zkchaos.checkers.watches.Updates.Change;
import io.zkchaos.checkers.watches.Updates.Update;
import io.zkchaos.checkers.watches.WatchEvent.Type;
import io.zkchaos.checkers.watches.WatchEvent.Watcher;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Walks one watching session — its calls and the events it received, in the order its client dispatched them — and
 * judges the watch guarantees of ZooKeeper's Programmer's Guide ("ZooKeeper Watches") against the writers' changes.
 * See {@link WatchesChecker} for the rules; this class keeps the session's state: which one-time watches are set
 * and at what state, which persistent watches are added, whether it is connected, and where each persistent watch's
 * events have got to.
 */
final class SessionJudge {

    static final String ORDERING = "ordering";
    static final String EVENT_BEFORE_DATA = "event-before-data";
    static final String PHANTOM = "phantom";
    static final String LOST_TRIGGER = "lost-trigger";
    static final String FIRED_TWICE = "fired-twice";

    /** The documented exception to "a one-time watch always fires", by its name in the report. */
    static final String CREATED_AND_DELETED_WHILE_DISCONNECTED = "exists watch: znode created and deleted while "
            + "disconnected";

    private final int process;
    private final Updates updates;
    private final List<WatchViolation> violations;
    private final Counts counts;

    // the connection, as the session's own events tell it
    private int span;                 // which connection: +1 at each Disconnected
    private boolean connected = true; // a session is connected when it is opened
    private long reconnectedAt = -1;  // the SyncConnected that ended the last disconnection
    private boolean awaitingCoverage; // reconnected, but no call has completed on the new connection yet
    private long spanStart = -1;      // the first call completed on the current connection (after a reconnection)
    private boolean over;             // expired or closed: nothing more is judged
    private long seenZxid;            // the largest zxid the session has read: its server is at least there
    private long seenAtReconnect;     // what it had read when it last reconnected

    private final Map<String, Arming> armed = new HashMap<>();      // watcher:path -> the one-time watch set
    private final Map<String, Long> firedAt = new HashMap<>();       // watcher:path -> where it last fired
    private final List<Added> added = new ArrayList<>();             // persistent watches
    private final Map<String, Chain> chains = new HashMap<>();       // watcher:path:span -> its events so far
    private long maxCause = -1;                                      // the largest cause of an event so far
    private WatchEvent maxCauseEvent;

    SessionJudge(int process, Updates updates, List<WatchViolation> violations, Counts counts) {
        this.process = process;
        this.updates = updates;
        this.violations = violations;
        this.counts = counts;
    }

    /** What every session adds to the report. */
    static final class Counts {
        int watchesSet;
        int persistentAdded;
        int events;
        int eventsPlaced;
        int barriers;
        boolean addWatchUnimplemented;
        final Map<String, Integer> excused = new LinkedHashMap<>();
        final Map<String, Integer> eventTypes = new java.util.TreeMap<>();
        final Map<String, Integer> eventWatchers = new java.util.TreeMap<>();
    }

    /** A one-time watch the session set: by which read, at what state of its znode. */
    private static final class Arming {
        final Watcher watcher;
        final String path;
        final ZnodeStat stat;     // what the read that set it returned
        final long completeIndex;
        final int span;
        final long seenZxid;      // the session's largest zxid read before it
        final boolean maybe;      // the read ended info: it may or may not have set the watch
        boolean judged;           // a violation was reported against it: do not report it again

        Arming(Watcher watcher, String path, ZnodeStat stat, long completeIndex, int span, long seenZxid,
               boolean maybe) {
            this.watcher = watcher;
            this.path = path;
            this.stat = stat;
            this.completeIndex = completeIndex;
            this.span = span;
            this.seenZxid = seenZxid;
            this.maybe = maybe;
        }

        boolean onAbsent() {
            return !stat.exists();
        }

        String describe() {
            return "the " + (watcher == Watcher.DATA && onAbsent() ? "exists" : watcher.word()) + " watch on "
                    + path + " set at index " + completeIndex + " (" + stat.describe() + ")";
        }
    }

    /** A persistent or persistent-recursive watch the session added. */
    private record Added(Watcher watcher, String path, long completeIndex, int span, long seenZxid) {
        boolean covers(String p, Type type) {
            return watcher == Watcher.PERSISTENT ? p.equals(path)
                    : type != Type.CHILDREN_CHANGED && Updates.isUnder(p, path);
        }
    }

    /** Where the events of one persistent watch on one znode have got to, on one connection. */
    private static final class Chain {
        long position = -1;       // the cause of its last event, when known
        boolean tracking = true;  // each event's cause known so far
        int events;
        final Set<Long> delivered = new HashSet<>();
        final Set<String> judged = new HashSet<>(); // changes already reported missing
    }

    // ---- the walk --------------------------------------------------------------------------------------------

    /** Judges the session's calls ({@code ops}) and events ({@code events}), each in history order. */
    void judge(List<Operation> ops, List<Operation> events) {
        int i = 0;
        int j = 0;
        while (!over && (i < ops.size() || j < events.size())) {
            // A call counts where it completed (its result was dispatched there), an event where it was recorded.
            long callAt = i < ops.size() ? ops.get(i).completeIndex() : Long.MAX_VALUE;
            long eventAt = j < events.size() ? events.get(j).invokeIndex() : Long.MAX_VALUE;
            if (callAt < 0) {
                i++; // never completed: the end of the history caught it; it proves nothing
            } else if (callAt < eventAt) {
                call(ops.get(i++));
            } else {
                Operation e = events.get(j++);
                if (e.f().equals("session")) {
                    session(e);
                } else {
                    event(WatchEvent.of(e));
                }
            }
        }
        finish();
    }

    private void call(Operation op) {
        switch (op.f()) {
            case "get-data", "exists", "get-children" -> read(op);
            case "sync" -> {
                if (op.isOk()) {
                    covered(op);
                    counts.barriers++;
                    barrier(op.completeIndex(), u -> u.knownAt() >= 0 && u.knownAt() < op.invokeIndex(), null,
                            "its sync (invoked at index " + op.invokeIndex() + ") completed at index "
                                    + op.completeIndex() + ", after the change was acknowledged", false);
                }
            }
            case "add-watch" -> addWatch(op);
            default -> {
            }
        }
    }

    private void session(Operation op) {
        String state = Values.stringField(Values.map(op.input(), "a session event", op), "state");
        switch (state == null ? "" : state) {
            case "disconnected" -> {
                if (connected) {
                    connected = false;
                    span++;
                }
            }
            case "sync-connected" -> {
                if (!connected) {
                    connected = true;
                    reconnectedAt = op.invokeIndex();
                    seenAtReconnect = seenZxid;
                    awaitingCoverage = true;
                    spanStart = -1;
                }
            }
            case "expired", "closed" -> over = true;
            default -> {
            }
        }
    }

    /** The first call to complete after a reconnection was sent after the client re-registered its watches. */
    private void covered(Operation op) {
        if (awaitingCoverage && op.isOk() && op.completeIndex() > reconnectedAt) {
            awaitingCoverage = false;
            spanStart = op.completeIndex();
        }
    }

    private void addWatch(Operation op) {
        if (op.isOk()) {
            covered(op);
            String mode = Values.stringField(Values.map(op.input(), "an add-watch's invoke value", op), "mode");
            Watcher w = "persistent-recursive".equals(mode) ? Watcher.RECURSIVE : Watcher.PERSISTENT;
            added.add(new Added(w, op.key(), op.completeIndex(), span, seenZxid));
            counts.persistentAdded++;
        } else if (op.error() != null && op.error().startsWith("unimplemented")) {
            counts.addWatchUnimplemented = true;
        }
    }

    private static boolean watches(Operation op) {
        Object w = Values.map(op.input(), "a read's invoke value", op).get("watch");
        return Boolean.TRUE.equals(w);
    }

    private void read(Operation op) {
        String path = op.key();
        if (path == null) {
            throw Values.malformed(op, "a read names its znode in the key");
        }
        boolean watch = watches(op);
        if (!op.isOk()) {
            if (op.isInfo() && watch) {
                Watcher w = op.f().equals("get-children") ? Watcher.CHILD : Watcher.DATA;
                armed.putIfAbsent(key(w, path), new Arming(w, path, ZnodeStat.ABSENT, op.completeIndex(), span,
                        seenZxid, true));
            }
            return;
        }
        ZnodeStat s = ZnodeStat.of(op);
        covered(op);
        for (Watcher w : List.of(Watcher.DATA, Watcher.CHILD)) {
            Arming a = armed.get(key(w, path));
            if (a != null && !a.maybe && !a.judged && newer(a, s)) {
                a.judged = true;
                violations.add(new WatchViolation(EVENT_BEFORE_DATA, process, path, op.completeIndex(),
                        "process " + process + " read " + path + " at index " + op.completeIndex() + " ("
                                + s.describe() + ") before " + a.describe() + " fired: the data changed since the "
                                + "watch was set, and the client must see the event first"));
            }
        }
        if (s.exists()) {
            long upTo = s.maxZxid();
            barrier(op.completeIndex(), u -> u.zxid() <= upTo, path, "its read of " + path + " completed at index "
                    + op.completeIndex() + " showing zxid " + Zxids.hex(upTo) + ", so its server had applied the "
                    + "change", false);
            seenZxid = Math.max(seenZxid, upTo);
        }
        if (watch) {
            arm(op, path, s);
        }
    }

    /** Whether {@code s} shows {@code a}'s znode changed in a way {@code a} watches for. */
    private static boolean newer(Arming a, ZnodeStat s) {
        if (a.watcher == Watcher.DATA && a.onAbsent()) {
            return s.exists();
        }
        if (!s.exists() || s.czxid() != a.stat.czxid()) {
            return true;
        }
        return a.watcher == Watcher.DATA ? s.mzxid() > a.stat.mzxid() : s.pzxid() > a.stat.pzxid();
    }

    private void arm(Operation op, String path, ZnodeStat s) {
        Watcher w = op.f().equals("get-children") ? Watcher.CHILD : Watcher.DATA;
        if (!s.exists() && !op.f().equals("exists")) {
            return; // getData and getChildren of an absent znode leave no watch
        }
        Arming old = armed.get(key(w, path));
        if (old == null || old.judged || old.maybe) {
            armed.put(key(w, path), new Arming(w, path, s, op.completeIndex(), span, seenZxid, false));
            counts.watchesSet++;
        } // else: the watch is already set (the client keeps one per watcher and znode), at the earlier state
    }

    private static String key(Watcher w, String path) {
        return w + ":" + path;
    }

    // ---- events ----------------------------------------------------------------------------------------------

    private void event(WatchEvent e) {
        counts.events++;
        counts.eventTypes.merge(e.type().word(), 1, Integer::sum);
        counts.eventWatchers.merge(e.watcher().word(), 1, Integer::sum);
        if (e.watcher().oneTime()) {
            oneTime(e);
        } else {
            persistent(e);
        }
        Update named = e.zxid() >= 0 ? updates.withZxid(e.zxid()) : null;
        if (named != null && named.invokeIndex() < e.index()) {
            // The server sends events in the order it applies changes: every earlier change it applied has fired.
            // Should the missing event still come, it is an ordering finding, not a lost one: held until then.
            barrier(e.index(), u -> u.zxid() < e.zxid(), null, "it received " + e.describe()
                    + ", a later change", true);
        }
    }

    /** What the walk has found but holds until the end: events missing at an event barrier may still come. */
    private final Map<Object, WatchViolation> late = new LinkedHashMap<>();

    /** The session's walk ended: what is still missing was lost. */
    void finish() {
        violations.addAll(late.values());
        late.clear();
    }

    private void oneTime(WatchEvent e) {
        String k = key(e.watcher(), e.path());
        Arming a = armed.remove(k);
        Long before = firedAt.put(k, e.index());
        if (a != null) {
            late.remove(a); // it came after all: if out of order, that is what is reported
        }
        if (a == null) {
            violations.add(new WatchViolation(FIRED_TWICE, process, e.path(), e.index(), e.describe() + ": "
                    + (before == null ? "the session never set a " + e.watcher().word() + " watch on " + e.path()
                    : "its one-time " + e.watcher().word() + " watch on " + e.path() + " had already fired at "
                    + "index " + before + " and was not set again since")));
            return;
        }
        if (a.maybe) {
            return; // set by a read whose outcome is unknown: it may fire once
        }
        boolean carried = a.span != span; // set before a disconnection: re-registered, and triggered if needed
        if (!allowed(a, e.type(), carried)) {
            violations.add(new WatchViolation(PHANTOM, process, e.path(), e.index(), e.describe() + ": "
                    + a.describe() + " cannot fire a " + e.type().word() + " event"));
            return;
        }
        List<Update> stream = stream(a);
        Update first = firstTrigger(a);
        Update cause = null;
        if (e.zxid() >= 0) {
            Update u = named(e, stream, carried);
            if (u == null) {
                return; // a phantom, reported; or a change in doubt may be it
            }
            boolean seen = a.watcher == Watcher.DATA && a.onAbsent() ? u.zxid() <= a.seenZxid
                    : !certainlyAfter(a, u);
            if (seen) {
                violations.add(new WatchViolation(PHANTOM, process, e.path(), e.index(), e.describe() + " names "
                        + u.describe() + ", which " + a.describe() + " had already seen"));
                return;
            }
            if (first != null && u.zxid() > first.zxid() && !a.judged) {
                a.judged = true;
                violations.add(new WatchViolation(LOST_TRIGGER, process, e.path(), e.index(), e.describe()
                        + " names " + u.describe() + ", but " + a.describe() + " should have fired at the first "
                        + "change after it, " + first.describe()));
            }
            cause = u;
        } else if (carried) {
            // Re-registered on reconnection: one event for whatever changed meanwhile, in no particular order.
            if (first == null && !unknownBefore(stream, e.index(), Long.MAX_VALUE)) {
                violations.add(new WatchViolation(PHANTOM, process, e.path(), e.index(), e.describe() + ": no change "
                        + "of " + e.path() + " after " + a.describe() + " committed"));
            }
            return;
        } else {
            boolean ambiguous = first == null ? unknownBefore(stream, e.index(), Long.MAX_VALUE)
                    : unknownBefore(stream, e.index(), first.knownAt());
            if (a.onAbsent()) {
                List<Update> creates = stream.stream().filter(u -> u.known() && u.zxid() > a.seenZxid
                        && u.invokeIndex() < e.index()).toList();
                if (creates.isEmpty() && !ambiguous) {
                    violations.add(new WatchViolation(PHANTOM, process, e.path(), e.index(), e.describe() + ": "
                            + "no create of " + e.path() + " had been invoked since " + a.describe()));
                    return;
                }
                cause = creates.size() == 1 && !ambiguous ? creates.get(0) : null;
            } else if (!ambiguous) {
                if (first == null || first.invokeIndex() > e.index()) {
                    violations.add(new WatchViolation(PHANTOM, process, e.path(), e.index(), e.describe() + ": "
                            + "no change of " + e.path() + " after " + a.describe() + " had been invoked by then"));
                    return;
                }
                if (Type.firedBy(first, e.path()) != e.type()) {
                    violations.add(new WatchViolation(PHANTOM, process, e.path(), e.index(), e.describe() + ": "
                            + "the first change after " + a.describe() + " was " + first.describe() + ", which "
                            + "fires " + Type.firedBy(first, e.path()).word()));
                    return;
                }
                cause = first;
            }
        }
        if (cause != null) {
            placed(e, cause);
        }
    }

    /**
     * The change whose zxid the server sent with {@code e}, when it is one that can have fired it: invoked before
     * the event, in {@code stream}, of the event's type (or, for {@code summary} events of a reconnection, a create
     * behind a data-changed). Null otherwise: a phantom, reported — unless no committed change has that zxid and a
     * change in doubt may be it.
     */
    private Update named(WatchEvent e, List<Update> stream, boolean summary) {
        Update u = updates.withZxid(e.zxid());
        if (u != null && u.invokeIndex() > e.index()) {
            violations.add(new WatchViolation(PHANTOM, process, e.path(), e.index(), e.describe() + " names "
                    + u.describe() + ", a change not yet invoked when the event arrived"));
            return null;
        }
        if (u != null && stream.contains(u) && (Type.firedBy(u, e.path()) == e.type()
                || summary && u.change() == Change.CREATE)) {
            return u;
        }
        if (u == null && unknownBefore(stream, e.index(), Long.MAX_VALUE)) {
            return null;
        }
        violations.add(new WatchViolation(PHANTOM, process, e.path(), e.index(), e.describe() + ": "
                + (u == null ? "no committed change has that zxid"
                : "that zxid is " + u.describe() + ", which cannot fire it")));
        return null;
    }

    /** The event types {@code a} can fire ({@code carried}: re-registered after a disconnection). */
    private static boolean allowed(Arming a, Type t, boolean carried) {
        if (a.watcher == Watcher.CHILD) {
            return t == Type.CHILDREN_CHANGED || t == Type.DELETED;
        }
        return a.onAbsent() ? t == Type.CREATED : t == Type.DATA_CHANGED || t == Type.DELETED;
    }

    /** The changes that can fire {@code a}, known ones by zxid. */
    private List<Update> stream(Arming a) {
        if (a.watcher == Watcher.CHILD) {
            List<Update> s = new ArrayList<>(updates.childrenOf(a.path));
            updates.own(a.path).stream().filter(u -> u.change() == Change.DELETE).forEach(s::add);
            s.sort(BY_ZXID);
            return s;
        }
        if (a.onAbsent()) {
            return updates.own(a.path).stream().filter(u -> u.change() == Change.CREATE).toList();
        }
        return updates.own(a.path);
    }

    private static final Comparator<Update> BY_ZXID = Comparator.comparingLong(u -> u.known() ? u.zxid()
            : Long.MAX_VALUE);

    /**
     * The first known change certainly after the state {@code a} was set at, by zxid; null when there is none. A set
     * after it has a larger zxid than the read's mzxid, a child change a larger one than its pzxid, and the delete of
     * the znode it saw is the first delete after its czxid. For an exists watch on an absent znode nothing in the
     * read places it: the first create invoked after the read completed.
     */
    private Update firstTrigger(Arming a) {
        return firstTrigger(a, u -> true);
    }

    private Update firstTrigger(Arming a, Predicate<Update> applied) {
        if (a.onAbsent() && a.watcher == Watcher.DATA) {
            return Updates.firstAfter(stream(a), -1, u -> u.invokeIndex() > a.completeIndex && applied.test(u));
        }
        Update delete = Updates.firstAfter(updates.own(a.path), a.stat.czxid(),
                u -> u.change() == Change.DELETE && applied.test(u));
        Update other = a.watcher == Watcher.CHILD
                ? Updates.firstAfter(updates.childrenOf(a.path), a.stat.pzxid(), applied)
                : Updates.firstAfter(updates.own(a.path), a.stat.mzxid(), u -> u.change() == Change.SET
                && applied.test(u));
        if (delete == null) {
            return other;
        }
        return other == null || delete.zxid() < other.zxid() ? delete : other;
    }

    /**
     * Whether {@code u} certainly came after the state {@code a} was set at (for a watch on a present znode, where
     * the read's stat places every change exactly: a set after it has a larger zxid than its mzxid, a child change
     * than its pzxid, and any later create or delete than its czxid).
     */
    private static boolean certainlyAfter(Arming a, Update u) {
        if (a.watcher == Watcher.CHILD && u.parent().equals(a.path)) {
            return u.change() != Change.SET && u.zxid() > a.stat.pzxid();
        }
        if (!u.path().equals(a.path)) {
            return false;
        }
        return u.change() == Change.SET ? a.watcher == Watcher.DATA && u.zxid() > a.stat.mzxid()
                : u.zxid() > a.stat.czxid();
    }

    /** Whether a change of unknown outcome in {@code stream}, invoked before {@code index} and before
     *  {@code notAfter}, could have come before the known ones. */
    private static boolean unknownBefore(List<Update> stream, long index, long notAfter) {
        long bound = notAfter < 0 ? Long.MAX_VALUE : notAfter;
        return stream.stream().anyMatch(u -> !u.known() && u.invokeIndex() < index && u.invokeIndex() < bound);
    }

    private void persistent(WatchEvent e) {
        Added w = added.stream().filter(a -> a.watcher() == e.watcher() && a.covers(e.path(), e.type()))
                .findFirst().orElse(null);
        if (w == null) {
            violations.add(new WatchViolation(PHANTOM, process, e.path(), e.index(), e.describe() + ": the "
                    + "session added no " + e.watcher().word() + " watch that covers it"));
            return;
        }
        Chain chain = chain(e.watcher(), e.path());
        List<Update> stream = stream(w, e.path());
        if (e.zxid() < 0 && awaitingCoverage) {
            // Reconnected, and the client's re-registered one-time watches were triggered for what changed while
            // it was away: the client hands that event to every watcher of the znode, persistent ones too. It
            // stands for those changes together, in no order: it must only have some change behind it.
            if (stream.stream().noneMatch(u -> u.invokeIndex() < e.index()
                    && (!u.known() || u.zxid() > seenAtReconnect))) {
                violations.add(new WatchViolation(PHANTOM, process, e.path(), e.index(), e.describe() + ": no "
                        + "change of " + e.path() + " was made while the session was disconnected"));
            }
            return;
        }
        chain.events++;
        if (e.zxid() >= 0) {
            Update u = named(e, stream, false);
            if (u == null) {
                chain.tracking = false; // a phantom, reported; or a change in doubt may be it
                return;
            }
            follow(e, chain, stream, u);
            return;
        }
        if (!chain.tracking) {
            if (stream.stream().noneMatch(u -> u.invokeIndex() < e.index()
                    && (!u.known() || Type.firedBy(u, e.path()) == e.type()))) {
                violations.add(new WatchViolation(PHANTOM, process, e.path(), e.index(), e.describe() + ": no "
                        + "change of that kind had been invoked"));
            }
            return;
        }
        if (chain.position >= 0) {
            Update next = Updates.firstAfter(stream, chain.position, u -> true);
            if (next != null ? unknownBefore(stream, e.index(), next.knownAt()) : unknownBefore(stream, e.index(),
                    Long.MAX_VALUE)) {
                chain.tracking = false; // a change of unknown outcome may come next
                return;
            }
            if (next == null || next.invokeIndex() > e.index()) {
                violations.add(new WatchViolation(PHANTOM, process, e.path(), e.index(), e.describe() + ": no "
                        + "change of " + e.path() + " after zxid " + Zxids.hex(chain.position) + " (its previous "
                        + "event's) had been invoked by then"));
                return;
            }
            if (Type.firedBy(next, e.path()) != e.type()) {
                chain.tracking = false;
                violations.add(new WatchViolation(ORDERING, process, e.path(), e.index(), e.describe() + " does "
                        + "not follow the changes of " + e.path() + " in order: after zxid "
                        + Zxids.hex(chain.position) + " (its previous event's) the next change was "
                        + next.describe() + ", which fires " + Type.firedBy(next, e.path()).word()));
                return;
            }
            follow(e, chain, stream, next);
            return;
        }
        // The first event of this watch on this znode on this connection: it comes from a change after the watch
        // was registered, which is after every zxid the session had read and no later than the first change
        // invoked after the registration is known to have completed.
        long start = coverageStart(w);
        long lower = w.span() == span ? w.seenZxid() : seenAtReconnect;
        Update firstMust = start < 0 ? null : Updates.firstAfter(stream, -1, u -> u.invokeIndex() > start);
        List<Update> candidates = stream.stream().filter(u -> u.known() && u.zxid() > lower
                && u.invokeIndex() < e.index() && (firstMust == null || u.zxid() <= firstMust.zxid())
                && Type.firedBy(u, e.path()) == e.type()).toList();
        boolean ambiguous = unknownBefore(stream, e.index(), Long.MAX_VALUE);
        if (candidates.isEmpty() && !ambiguous) {
            violations.add(new WatchViolation(PHANTOM, process, e.path(), e.index(), e.describe() + ": no change "
                    + "of " + e.path() + " that fires " + e.type().word() + " was made after the session read zxid "
                    + Zxids.hex(lower) + (firstMust == null ? "" : " and no later than " + firstMust.describe()
                    + ", the first made once the watch was registered on this connection")));
            chain.tracking = false;
            return;
        }
        if (candidates.size() == 1 && !ambiguous) {
            follow(e, chain, stream, candidates.get(0));
        } else {
            chain.tracking = false;
        }
    }

    /** The event {@code e} of {@code chain} was caused by {@code u}: check it comes next, and place it. */
    private void follow(WatchEvent e, Chain chain, List<Update> stream, Update u) {
        if (chain.position >= 0 && chain.tracking) {
            if (u.zxid() <= chain.position) {
                violations.add(new WatchViolation(ORDERING, process, e.path(), e.index(), e.describe() + " names "
                        + u.describe() + (u.zxid() == chain.position ? ", for which the watch had already fired"
                        : ", older than its previous event's change (zxid " + Zxids.hex(chain.position) + ")")));
                return;
            }
            // The previous event came from a change the server applied with the watch registered, on this
            // connection: every change between the two fires it too.
            List<Update> skipped = stream.stream().filter(x -> x.known() && x.zxid() > chain.position
                    && x.zxid() < u.zxid() && !chain.judged.contains(x.id())).toList();
            if (!skipped.isEmpty()) {
                skipped.forEach(x -> chain.judged.add(x.id()));
                violations.add(new WatchViolation(LOST_TRIGGER, process, e.path(), e.index(), e.describe()
                        + " skips " + skipped.size() + " change(s) made since its previous event on the same "
                        + "connection, first " + skipped.get(0).describe()));
            }
        }
        chain.position = u.zxid();
        chain.delivered.add(u.zxid());
        late.remove(u);
        placed(e, u);
    }

    /** An event whose cause is known: it must not come before an event of an earlier change. */
    private void placed(WatchEvent e, Update cause) {
        counts.eventsPlaced++;
        if (cause.zxid() < maxCause) {
            violations.add(new WatchViolation(ORDERING, process, e.path(), e.index(), e.describe() + ", caused by "
                    + cause.describe() + ", arrived after " + maxCauseEvent.describe() + ", caused by the later "
                    + "zxid " + Zxids.hex(maxCause)));
            return;
        }
        maxCause = cause.zxid();
        maxCauseEvent = e;
    }

    private Chain chain(Watcher w, String path) {
        return chains.computeIfAbsent(w + ":" + path + ":" + span, k -> new Chain());
    }

    /** The changes that fire watch {@code w} on {@code path}, known ones by zxid. */
    private List<Update> stream(Added w, String path) {
        if (w.watcher() == Watcher.RECURSIVE) {
            return updates.own(path);
        }
        List<Update> s = new ArrayList<>(updates.own(path));
        s.addAll(updates.childrenOf(path));
        s.sort(BY_ZXID);
        return s;
    }

    /**
     * From where on the current connection {@code w} is certainly registered at the server: its own completion on
     * the connection it was added on; after a reconnection, the first call completed on the new connection (sent
     * after the client re-registered its watches); -1 while no call has completed since a reconnection.
     */
    private long coverageStart(Added w) {
        if (w.span() == span) {
            return w.completeIndex();
        }
        return awaitingCoverage ? -1 : spanStart;
    }

    // ---- barriers: where the session has certainly heard of every change its server applied before -----------

    /**
     * At {@code index} the session's server had applied every change {@code applied} accepts, and sent the events
     * they caused before: every watch such a change fires must have fired by now. A read of {@code readPath} judges
     * the one-time watches on that znode itself (by its stat, above).
     */
    private void barrier(long index, Predicate<Update> applied, String readPath, String why, boolean deferred) {
        for (Arming a : armed.values()) {
            if (a.maybe || a.judged || a.path.equals(readPath) || deferred && late.containsKey(a)) {
                continue;
            }
            Update u = firstTrigger(a, applied);
            if (u == null) {
                continue;
            }
            if (!deferred) {
                a.judged = true;
                late.remove(a);
            }
            boolean carried = a.span != span;
            if (carried && a.watcher == Watcher.DATA && a.onAbsent() && updates.own(a.path).stream()
                    .anyMatch(d -> d.change() == Change.DELETE && d.known() && d.zxid() > u.zxid())) {
                counts.excused.merge(CREATED_AND_DELETED_WHILE_DISCONNECTED, 1, Integer::sum);
                continue;
            }
            WatchViolation v = new WatchViolation(LOST_TRIGGER, process, a.path, index, a.describe() + " of process "
                    + process + " had not fired by index " + index + " though " + u.describe() + " came after it: "
                    + why + (carried ? " (the session reconnected in between: its watches were re-registered and "
                    + "triggered if needed)" : " (on the same connection)"));
            if (deferred) {
                late.put(a, v);
            } else {
                violations.add(v);
            }
        }
        if (awaitingCoverage) {
            return;
        }
        for (Added w : added) {
            long start = coverageStart(w);
            for (String path : coveredPaths(w)) {
                Chain chain = chain(w.watcher(), path);
                List<Update> must = stream(w, path).stream().filter(u -> u.known() && u.invokeIndex() > start
                        && applied.test(u) && !chain.judged.contains(u.id())
                        && !(deferred && late.containsKey(u))).toList();
                if (must.isEmpty()) {
                    continue;
                }
                List<Update> missing = chain.tracking ? must.stream()
                        .filter(u -> !chain.delivered.contains(u.zxid())).toList()
                        : chain.events >= must.size() ? List.of() : must;
                if (missing.isEmpty()) {
                    continue;
                }
                String rule = path.equals(readPath) ? EVENT_BEFORE_DATA : LOST_TRIGGER;
                WatchViolation v = new WatchViolation(rule, process, path, index, "the " + w.watcher().word()
                        + " watch on " + w.path() + " of process " + process + " (added at index "
                        + w.completeIndex() + ") had not fired for " + missing.get(0).describe()
                        + (missing.size() > 1 ? " and " + (missing.size() - 1) + " more change(s) of " + path : "")
                        + " by index " + index + ", though connected since index " + start + ": " + why);
                if (deferred) {
                    late.put(missing.get(0), v); // dropped if its event still comes
                } else {
                    missing.forEach(u -> {
                        chain.judged.add(u.id());
                        late.remove(u);
                    });
                    violations.add(v);
                }
            }
        }
    }

    /** The znodes whose changes fire {@code w}: its own, or every changed one below it. */
    private List<String> coveredPaths(Added w) {
        if (w.watcher() == Watcher.PERSISTENT) {
            return List.of(w.path());
        }
        return updates.paths().stream().filter(p -> Updates.isUnder(p, w.path())).sorted().toList();
    }
}
