package io.zkchaos.checkers.watches;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Checker;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Operation;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * ZooKeeper's watch guarantees, as its Programmer's Guide states them ("ZooKeeper Watches"), judged on a history of
 * watching sessions and the writers' changes ({@code docs/history-conventions.md}, "Watches").
 *
 * <h2>History contract</h2>
 * Writers record {@code create}, {@code set} and {@code delete} keyed by the znode, invoke value {@code {"id": ...}},
 * ok value {@code {"zxid": z}} (the transaction's zxid); {@code resolve} ({@code {"pending": [ids]}}, ok
 * {@code {"landed": id or null, "zxid": z}}) settles changes that ended info. A watching session records its reads
 * ({@code get-data}, {@code exists}, {@code get-children}: invoke {@code {"watch": bool}}, ok the znode's stat or
 * {@code {"exists": false}}), {@code add-watch} ({@code {"mode": "persistent" | "persistent-recursive"}}) and
 * {@code sync} under its process {@code p}, and the events its client dispatched — {@code event} (invoke value
 * {@code {"watcher", "type", "zxid"}}, key the znode) and {@code session} ({@code {"state": ...}}) — under
 * {@code p + }{@link #EVENT_STREAM_OFFSET}, all in the order its client dispatched them.
 *
 * <h2>Verdict</h2>
 * Invalid on any of: an event that arrives before the event of an earlier change (<em>ordering</em>); a read that
 * shows a watched znode changed before the watch's event arrived (<em>event-before-data</em>); an event no committed
 * or indeterminate change can have caused (<em>phantom</em>); a watch that had not fired at a point where its session
 * had certainly heard of a change that fires it — a sync after the change was acknowledged, a read or an event
 * showing a later zxid — without a documented excuse (<em>lost-trigger</em>); a one-time watch that fires again
 * without being set again (<em>fired-twice</em>). Unknown when no watch event was delivered or no change committed.
 */
public final class WatchesChecker implements Checker {

    /** A watching session's events are recorded under its process number plus this. */
    public static final int EVENT_STREAM_OFFSET = 500_000;

    /** Processes from here up are the harness's own (final reads and the like), not clients. */
    private static final int HARNESS_PROCESSES = io.zkchaos.checkers.history.History.HARNESS_PROCESS_BASE;

    private static final Set<String> SESSION_CALLS = Set.of("get-data", "exists", "get-children", "add-watch",
            "sync");

    @Override
    public String name() {
        return "watches";
    }

    @Override
    public CheckResult check(History history) {
        Updates updates = Updates.of(history);
        Map<Integer, List<Operation>> calls = new TreeMap<>();
        Map<Integer, List<Operation>> events = new TreeMap<>();
        for (Operation op : history.operations()) {
            int p = op.process();
            if (p >= HARNESS_PROCESSES || p < 0) {
                continue;
            }
            if (p >= EVENT_STREAM_OFFSET && (op.f().equals("event") || op.f().equals("session"))) {
                events.computeIfAbsent(p - EVENT_STREAM_OFFSET, k -> new ArrayList<>()).add(op);
            } else if (SESSION_CALLS.contains(op.f())) {
                calls.computeIfAbsent(p, k -> new ArrayList<>()).add(op);
            }
        }
        List<WatchViolation> violations = new ArrayList<>();
        SessionJudge.Counts counts = new SessionJudge.Counts();
        java.util.Set<Integer> sessions = new java.util.TreeSet<>(calls.keySet());
        sessions.addAll(events.keySet());
        for (int p : sessions) {
            new SessionJudge(p, updates, violations, counts).judge(calls.getOrDefault(p, List.of()),
                    events.getOrDefault(p, List.of()));
        }
        violations.sort(Comparator.comparingLong(WatchViolation::index));
        int changes = updates.all().size() - updates.unknownCount();
        WatchesReport report = new WatchesReport(sessions.size(), counts.watchesSet, counts.persistentAdded,
                counts.events, counts.eventsPlaced, changes, updates.unknownCount(), counts.barriers,
                new java.util.TreeMap<>(counts.excused), counts.addWatchUnimplemented, List.copyOf(violations),
                counts.eventTypes, counts.eventWatchers);
        Validity validity = !violations.isEmpty() ? Validity.INVALID
                : counts.events == 0 || changes == 0 ? Validity.UNKNOWN : Validity.VALID;
        return CheckResult.of(name(), validity, summary(validity, report), report);
    }

    private static String summary(Validity validity, WatchesReport r) {
        StringBuilder s = new StringBuilder();
        if (validity == Validity.UNKNOWN) {
            s.append(r.changes() == 0 ? "No change committed: no watch could fire, nothing to check. "
                    : "No watch event was delivered: nothing to check. ");
        }
        if (!r.violations().isEmpty()) {
            Map<String, Integer> byRule = new TreeMap<>();
            r.violations().forEach(v -> byRule.merge(v.rule(), 1, Integer::sum));
            s.append(r.violations().size()).append(" watch guarantee(s) broken (");
            List<String> rules = new ArrayList<>();
            byRule.forEach((rule, n) -> rules.add(n + " " + rule));
            s.append(String.join(", ", rules)).append("): ");
            List<String> first = new ArrayList<>();
            for (WatchViolation v : r.violations().subList(0, Math.min(3, r.violations().size()))) {
                first.add(v.rule() + ": " + v.explanation());
            }
            s.append(String.join("; ", first)).append(r.violations().size() > 3 ? "; ..." : "").append(". ");
        }
        s.append(r.sessions()).append(" session(s) set ").append(r.watchesSet()).append(" one-time watch(es) and added ")
                .append(r.persistentAdded()).append(" persistent one(s); ").append(r.events())
                .append(" event(s) delivered, ").append(r.eventsPlaced()).append(" placed by the change that caused "
                        + "them; ").append(r.changes()).append(" change(s) committed, ").append(r.unknownChanges())
                .append(" of unknown outcome; ").append(r.barriers()).append(" sync barrier(s)");
        if (!r.excused().isEmpty()) {
            List<String> ex = new ArrayList<>();
            r.excused().forEach((why, n) -> ex.add(n + " (" + why + ")"));
            s.append("; excused as documented: ").append(String.join(", ", ex));
        }
        if (r.addWatchUnimplemented()) {
            s.append("; persistent watches not checked: this server answered addWatch with Unimplemented "
                    + "(ZooKeeper has them from 3.6.0)");
        }
        s.append('.');
        return s.toString();
    }
}
