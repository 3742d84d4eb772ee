package io.zkchaos.checkers.servers;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Checker;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.Values;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Operation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Availability as ZooKeeper promises it: while a majority of the servers is whole, each whole server acknowledges
 * writes. A server is <em>whole</em> while no fault acts on it or its links ({@link FaultWindow}: its window, and the
 * grace after it when the fault excuses {@link ServerBehaviour#STALL}) and it is not down by itself (a
 * {@link ServerEvent} exit not yet followed by a start).
 *
 * <p>History contract: a prober pinned to each server writes through it alone, as processes from
 * {@link #PROCESS_BASE} (below {@link #PROCESS_END}), function {@value #WRITE}, key the server's name; a write
 * acknowledged is {@code ok}, any other end (fail, info, none) is not an acknowledgement.
 *
 * <p>The probes' time is cut into stretches, each with one set of whole servers. A stretch with a whole majority is
 * judged: for each of its whole servers, a gap longer than the bound in which writes were attempted through it and
 * none was acknowledged is a stall ({@code availability:stall}), INVALID. A gap is counted from the last
 * acknowledgement, or from the stretch's start when that is later: a stretch's first bound is not judged (the
 * ensemble may elect after a heal), nor a stretch shorter than the bound. Verdict: INVALID on a stall; UNKNOWN when
 * there was no probe write or no stretch with a whole majority (nothing to judge); else VALID, saying so when no
 * stretch lasted longer than the bound (writes went through, but no stretch was long enough to hold a stall: a short
 * run's or one whose faults leave short healed spells).
 */
public final class AvailabilityChecker implements Checker {

    public static final String NAME = "availability";
    /** The probe's function. */
    public static final String WRITE = "avail-write";
    /** The probes' processes: from here (each server's index, then renewed after an info by steps of 100) ... */
    public static final int PROCESS_BASE = 5_000_000;
    /** ... up to here, excluded. */
    public static final int PROCESS_END = 6_000_000;
    /** Processes per renewal: at most this many servers. */
    public static final int MAX_SERVERS = 100;

    private final long boundNanos;
    private final Function<String, FaultExcuses> declared;
    private final List<ServerEvent> events;

    /**
     * @param bound    how long a whole server may go without acknowledging a write while a majority is whole
     * @param declared each fault's declaration by name (the nemesis' {@code ServerExcuses.forRun})
     * @param events   the servers' own account ({@code servers.jsonl}); empty when none was kept
     */
    public AvailabilityChecker(Duration bound, Function<String, FaultExcuses> declared, List<ServerEvent> events) {
        if (bound == null || bound.isNegative() || bound.isZero()) {
            throw new IllegalArgumentException("the availability bound must be positive, got " + bound);
        }
        this.boundNanos = bound.toNanos();
        this.declared = Objects.requireNonNull(declared, "declared");
        this.events = List.copyOf(events);
    }

    /**
     * The default bound: {@code 2 × sessionTimeout + electionBound} (the election bound being
     * {@code initLimit × tickTime}): a leader lost is noticed within a session timeout, a new one elected and
     * synced within the election bound, and a client whose session was lost meanwhile connects again within another
     * session timeout.
     */
    public static Duration defaultBound(Duration sessionTimeout, Duration electionBound) {
        return sessionTimeout.multipliedBy(2).plus(electionBound);
    }

    /** The probe's process for server {@code index} in its {@code renewal}-th session. */
    public static int process(int index, int renewal) {
        if (index < 0 || index >= MAX_SERVERS) {
            throw new IllegalArgumentException("server index " + index + " not in [0, " + MAX_SERVERS + ")");
        }
        int p = PROCESS_BASE + renewal * MAX_SERVERS + index;
        if (renewal < 0 || p >= PROCESS_END) {
            throw new IllegalArgumentException("probe renewal " + renewal + " out of range");
        }
        return p;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public CheckResult check(History history) {
        Map<String, List<Operation>> probes = new TreeMap<>();
        for (Operation op : history.operations()) {
            if (op.process() >= PROCESS_BASE && op.process() < PROCESS_END && WRITE.equals(op.f())) {
                if (op.key() == null || op.invokeTime() < 0) {
                    throw new IllegalArgumentException("probe write at history index " + op.invokeIndex()
                            + " has no " + (op.key() == null ? "key (its server)" : "time"));
                }
                probes.computeIfAbsent(op.key(), k -> new ArrayList<>()).add(op);
            }
        }
        long bound = boundNanos;
        if (probes.isEmpty()) {
            return CheckResult.of(NAME, Validity.UNKNOWN, "no probe writes: nothing to judge availability by",
                    new AvailabilityReport(bound / 1_000_000, List.of(), 0, 0, 0, 0, List.of(), List.of()));
        }
        List<FaultWindow> windows = FaultWindows.from(history, declared);
        List<String> nodes = List.copyOf(probes.keySet());
        long spanStart = Long.MAX_VALUE;
        long spanEnd = Long.MIN_VALUE;
        int writes = 0;
        int acks = 0;
        for (List<Operation> ops : probes.values()) {
            for (Operation op : ops) {
                spanStart = Math.min(spanStart, op.invokeTime());
                spanEnd = Math.max(spanEnd, Math.max(op.invokeTime(), op.completeTime()));
                writes++;
                acks += op.isOk() ? 1 : 0;
            }
        }
        List<AvailabilityReport.Stretch> stretches = stretches(nodes, windows, spanStart, spanEnd);
        int majority = nodes.size() / 2 + 1;
        int judged = 0;
        long judgedNanos = 0;
        long judgedBeyondBound = 0;
        List<AvailabilityReport.Stretch> excused = new ArrayList<>();
        List<AvailabilityReport.Stall> stalls = new ArrayList<>();
        for (AvailabilityReport.Stretch s : stretches) {
            if (s.whole().size() < majority) {
                excused.add(s);
                continue;
            }
            judged++;
            judgedNanos += s.endNanos() - s.startNanos();
            judgedBeyondBound += Math.max(0, s.endNanos() - s.startNanos() - bound);
            for (String node : s.whole()) {
                stalls.addAll(gaps(node, s, probes.get(node)));
            }
        }
        stalls.sort(Comparator.comparingLong(AvailabilityReport.Stall::fromNanos));
        AvailabilityReport report = new AvailabilityReport(bound / 1_000_000, nodes, writes, acks, judged,
                judgedNanos / 1_000_000, excused, stalls);
        String judgedText = judged + " stretch(es) with a whole majority of " + nodes.size() + " servers ("
                + Values.human(judgedNanos) + "), " + excused.size() + " without (excused), bound "
                + Values.human(bound) + "; " + acks + " of " + writes + " probe writes acknowledged";
        if (!stalls.isEmpty()) {
            AvailabilityReport.Stall first = stalls.get(0);
            return CheckResult.of(NAME, Validity.INVALID, stalls.size() + " stall(s): " + describe(first) + ". Judged "
                    + judgedText, report);
        }
        if (judged == 0) {
            return CheckResult.of(NAME, Validity.UNKNOWN, "no stretch with a whole majority: nothing judged. "
                    + judgedText, report);
        }
        if (judgedBeyondBound == 0) {
            return CheckResult.of(NAME, Validity.VALID, "no stretch with a whole majority lasted longer than the "
                    + "bound, so none could hold a stall. Judged " + judgedText, report);
        }
        return CheckResult.of(NAME, Validity.VALID, "every whole server acknowledged writes within the bound. Judged "
                + judgedText, report);
    }

    private static String describe(AvailabilityReport.Stall s) {
        return s.node() + " acknowledged no write for " + Values.human(s.toNanos() - s.fromNanos()) + " from "
                + Values.human(s.fromNanos()) + " (" + s.attempts() + " attempted"
                + (s.error() == null ? "" : ", first error: " + s.error()) + ") while "
                + String.join(", ", s.stretch().whole()) + " were whole; last acknowledged "
                + (s.lastAckNanos() == null ? "never" : "at " + Values.human(s.lastAckNanos()));
    }

    /** The gaps longer than the bound in {@code node}'s probe writes within stretch {@code s}. */
    private List<AvailabilityReport.Stall> gaps(String node, AvailabilityReport.Stretch s, List<Operation> ops) {
        List<AvailabilityReport.Stall> found = new ArrayList<>();
        long probeEnd = ops.stream().mapToLong(o -> Math.max(o.invokeTime(), o.completeTime())).max().orElse(0);
        long end = Math.min(s.endNanos(), probeEnd);
        Operation lastAck = null;
        long from = s.startNanos();
        for (Operation op : ops) {
            if (!op.isOk() || op.completeTime() < 0) {
                continue;
            }
            long at = op.completeTime();
            if (at <= s.startNanos()) {
                lastAck = op;
                continue;
            }
            if (at > end) {
                break;
            }
            stall(node, s, ops, from, at, lastAck).ifPresent(found::add);
            lastAck = op;
            from = at;
        }
        stall(node, s, ops, from, end, lastAck).ifPresent(found::add);
        return found;
    }

    private java.util.Optional<AvailabilityReport.Stall> stall(String node, AvailabilityReport.Stretch s,
                                                                List<Operation> ops, long from, long to,
                                                                Operation lastAck) {
        if (to - from <= boundNanos) {
            return java.util.Optional.empty();
        }
        int attempts = 0;
        String error = null;
        for (Operation op : ops) {
            boolean pending = op.completeTime() < 0;
            if (op.invokeTime() < to && (pending || op.completeTime() > from)) {
                attempts++;
                if (error == null && !op.isOk()) {
                    error = op.error() != null ? op.error() : "no answer";
                }
            }
        }
        if (attempts == 0) {
            return java.util.Optional.empty(); // nothing tried through it: the probe was not running
        }
        return java.util.Optional.of(new AvailabilityReport.Stall(node, s, from, to,
                lastAck == null ? null : lastAck.completeTime(), lastAck == null ? null : lastAck.completeIndex(),
                attempts, error));
    }

    /** The probes' time cut where the set of whole servers changes. */
    private List<AvailabilityReport.Stretch> stretches(List<String> nodes, List<FaultWindow> windows, long from,
                                                       long to) {
        TreeSet<Long> cuts = new TreeSet<>(List.of(from, to));
        for (FaultWindow w : windows) {
            cuts.add(w.startNanos());
            cuts.add(effectiveEnd(w));
        }
        for (ServerEvent e : events) {
            cuts.add(e.timeNanos());
        }
        List<Long> points = cuts.subSet(from, true, to, true).stream().toList();
        List<AvailabilityReport.Stretch> out = new ArrayList<>();
        for (int i = 0; i + 1 < points.size(); i++) {
            long t = points.get(i);
            List<String> whole = new ArrayList<>();
            for (String node : nodes) {
                if (wholeAt(node, t, windows)) {
                    whole.add(node);
                }
            }
            List<String> faults = windows.stream().filter(w -> w.startNanos() <= t && t < effectiveEnd(w))
                    .map(FaultWindow::describe).toList();
            AvailabilityReport.Stretch last = out.isEmpty() ? null : out.get(out.size() - 1);
            if (last != null && last.whole().equals(whole)) {
                Set<String> all = new java.util.LinkedHashSet<>(last.faults());
                all.addAll(faults);
                out.set(out.size() - 1, new AvailabilityReport.Stretch(last.startNanos(), points.get(i + 1), whole,
                        List.copyOf(all)));
            } else {
                out.add(new AvailabilityReport.Stretch(t, points.get(i + 1), whole, faults));
            }
        }
        return out;
    }

    /** When a window stops making its nodes less than whole: its end, plus its grace when it excuses a stall. */
    private static long effectiveEnd(FaultWindow w) {
        if (w.endNanos() == Long.MAX_VALUE) {
            return Long.MAX_VALUE;
        }
        return w.excuses().contains(ServerBehaviour.STALL) ? w.endNanos() + w.graceNanos() : w.endNanos();
    }

    private boolean wholeAt(String node, long t, List<FaultWindow> windows) {
        for (FaultWindow w : windows) {
            if (w.nodes().contains(node) && w.startNanos() <= t && t < effectiveEnd(w)) {
                return false;
            }
        }
        return !downAt(node, t);
    }

    /** Whether the server's process had exited at {@code t} and not started again. */
    private boolean downAt(String node, long t) {
        boolean down = false;
        for (ServerEvent e : events) {
            if (e.node().equals(node) && e.timeNanos() <= t) {
                if (e.kind() == ServerEvent.Kind.EXITED) {
                    down = true;
                } else if (e.kind() == ServerEvent.Kind.STARTED) {
                    down = false;
                }
            }
        }
        return down;
    }
}
