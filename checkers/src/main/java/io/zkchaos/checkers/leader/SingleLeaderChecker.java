package io.zkchaos.checkers.leader;

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
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Single leader, for election histories.
 *
 * <h2>History contract</h2>
 * (see {@code docs/history-conventions.md}) A candidate process records {@code acquire}: invoke when it volunteers
 * (value null), ok when it learns it leads with value {@code {"token": long, "czxid": long, "node": string}}, info or
 * fail if it gave up before leading; and {@code release}: invoke when it stops believing it leads, value
 * {@code {"token": long, "reason": "closed"|"session-expired"|"disconnected"|"node-deleted"}}, ok when done. The
 * nemesis (process {@link Op#NEMESIS}) records every fault as an invoke then an info; {@code f = "heal"} ends every
 * fault in force.
 *
 * <p>A leadership interval runs from the acquire ok to the <em>first</em> of: the release invoke, the info that
 * retires the process, the end of the history. First, because each of these is the last point at which the process
 * can be said to believe it leads: a process retired by an info records nothing more, and its session is replaced.
 * Taking the first end never invents an overlap; a process still leading at the end of the history leads to its end.
 *
 * <h2>Verdict</h2>
 * Invalid when: two different holders got one token (or one czxid); a token went backwards (an acquisition that
 * began after another had completed got a lower token); after a heal no leader held within the failover bound
 * (the bound is measured from the heal's info; when the history ends before the bound elapsed the verdict is
 * unknown). Real-time overlaps of two leaders are inherent to lease-free recipes and are reported as findings, with
 * their start, length and whether fencing would have rejected the stale leader; they fail the run only when the
 * stale leader's <em>awake</em> part is longer than the {@code max-overlap} option. The part during which the
 * nemesis held the stale leader's process frozen (a pause naming it, until the next heal) is reported as such and
 * not judged: a frozen process cannot learn that it lost, and how long it stays frozen is the nemesis's choice;
 * what max-overlap holds a recipe to is how fast a running leader learns. Failover times after each fault start are
 * listed, never judged.
 *
 * <p>Real-time order is history order; lengths and failover times need times ({@link Op#time()}); without them
 * they are reported as -1 and a configured bound makes the verdict unknown.
 */
public final class SingleLeaderChecker implements Checker {

    /** The default failover bound after a heal. */
    public static final Duration DEFAULT_FAILOVER_BOUND = Duration.ofSeconds(30);

    private final Duration maxOverlap;
    private final Duration failoverBound;

    /**
     * @param maxOverlap    overlaps longer than this fail the run; null: overlaps never fail the run
     * @param failoverBound a leader must hold within this time after every heal
     */
    public SingleLeaderChecker(Duration maxOverlap, Duration failoverBound) {
        if (maxOverlap != null && maxOverlap.isNegative()) {
            throw new IllegalArgumentException("max-overlap must not be negative: " + maxOverlap);
        }
        Objects.requireNonNull(failoverBound, "failoverBound");
        if (failoverBound.isNegative()) {
            throw new IllegalArgumentException("failover-bound must not be negative: " + failoverBound);
        }
        this.maxOverlap = maxOverlap;
        this.failoverBound = failoverBound;
    }

    /** Overlaps never fail the run; failover bound {@link #DEFAULT_FAILOVER_BOUND}. */
    public SingleLeaderChecker() {
        this(null, DEFAULT_FAILOVER_BOUND);
    }

    @Override
    public String name() {
        return "single-leader";
    }

    @Override
    public CheckResult check(History history) {
        if (history.operations().stream().noneMatch(op -> op.f().equals("acquire"))) {
            return CheckResult.of(name(), Validity.UNKNOWN, "No acquire operation in the history: nothing to check "
                    + "(is this an election workload?).", null);
        }
        List<Acquisition> acquisitions = new ArrayList<>();
        List<LeaderInterval> intervals = intervals(history, acquisitions);
        List<String> violations = new ArrayList<>();
        boolean undecided = false;

        List<TokenViolation> tokenViolations = new ArrayList<>();
        duplicates(acquisitions, tokenViolations);
        backwards(acquisitions, tokenViolations);
        for (TokenViolation v : tokenViolations) {
            violations.add(v.explanation());
        }

        List<LeaderOverlap> overlaps = overlaps(intervals, freezes(history));
        long maxOverlapNanos = maxOverlap == null ? -1 : Values.nanos(maxOverlap);
        if (maxOverlap != null) {
            for (LeaderOverlap o : overlaps) {
                if (o.awakeNanos() < 0) {
                    undecided = true;
                } else if (o.awakeNanos() > maxOverlapNanos) {
                    violations.add("leaders " + o.stale().label() + " and " + o.newer().label() + " overlapped for "
                            + Values.human(o.lengthNanos()) + (o.frozenNanos() > 0 ? " (awake " + Values.human(
                            o.awakeNanos()) + " after " + Values.human(o.frozenNanos()) + " frozen by the nemesis)"
                            : "") + ", more than max-overlap " + Values.human(maxOverlapNanos));
                }
            }
        }

        long boundNanos = Values.nanos(failoverBound);
        long endNanos = history.ops().isEmpty() ? -1 : history.ops().get(history.size() - 1).time();
        List<Failover> failovers = new ArrayList<>();
        List<Failover> faultFailovers = new ArrayList<>();
        // A heal after the last election operation (the run's final heal, once candidates stopped) has nobody left
        // to elect: there is nothing to judge, which is not the same as undecided.
        long lastClientIndex = history.operations().stream()
                .filter(o -> o.f().equals("acquire") || o.f().equals("release"))
                .mapToLong(o -> o.completeIndex() < 0 ? Long.MAX_VALUE : Math.max(o.invokeIndex(), o.completeIndex()))
                .max().orElse(-1);
        for (Op n : history.nemesisOps()) {
            if ("heal".equals(n.f()) && n.type() == OpType.INFO && n.index() > lastClientIndex) {
                continue;
            }
            if ("heal".equals(n.f()) && n.type() == OpType.INFO) {
                Failover f = afterHeal(n, intervals, acquisitions, boundNanos, endNanos);
                Op nextFault = nextFaultAfter(n, history.nemesisOps());
                if (f.leader() == null || f.failoverNanos() < 0) {
                    // No leader yet: if the next fault began within the bound, the healed window was too short to
                    // judge (the cluster was broken again before it had to recover).
                    if (nextFault != null && n.time() >= 0 && nextFault.time() >= 0
                            && nextFault.time() - n.time() < boundNanos
                            && (f.leader() == null || f.leader().startNanos() > nextFault.time())) {
                        failovers.add(new Failover(CUT_SHORT, n.index(), n.time(), null, -1, null));
                        continue;
                    }
                } else if (nextFault != null && nextFault.time() >= 0 && f.leader().startNanos() > nextFault.time()
                        && nextFault.time() - n.time() < boundNanos) {
                    failovers.add(new Failover(CUT_SHORT, n.index(), n.time(), null, -1, null));
                    continue;
                }
                failovers.add(f);
                if (f.withinBound() == null) {
                    undecided = true;
                } else if (!f.withinBound()) {
                    violations.add(f.leader() == null
                            ? "no leader within " + Values.human(boundNanos) + " of the heal at index "
                              + n.index() + " (none until the history ended " + Values.human(endNanos - n.time())
                              + " later)"
                            : "no leader within " + Values.human(boundNanos) + " of the heal at index " + n.index()
                              + ": the next, " + f.leader().label() + ", took " + Values.human(f.failoverNanos()));
                }
            } else if (!"heal".equals(n.f()) && n.type() == OpType.INVOKE) {
                faultFailovers.add(afterFault(n, acquisitions));
            }
        }

        SingleLeaderReport report = new SingleLeaderReport(intervals, tokenViolations, overlaps, maxOverlapNanos,
                boundNanos, failovers, faultFailovers, violations);
        Validity validity = !violations.isEmpty() ? Validity.INVALID
                : undecided || intervals.isEmpty() ? Validity.UNKNOWN : Validity.VALID;
        return CheckResult.of(name(), validity, summary(validity, report), report);
    }

    private static String summary(Validity validity, SingleLeaderReport r) {
        StringBuilder s = new StringBuilder();
        if (validity == Validity.INVALID) {
            s.append(r.violations().size()).append(" violation(s): ")
                    .append(String.join("; ", r.violations().subList(0, Math.min(3, r.violations().size()))));
            if (r.violations().size() > 3) {
                s.append("; ...");
            }
            s.append(". ");
        } else if (validity == Validity.UNKNOWN) {
            List<String> why = new ArrayList<>();
            for (Failover f : r.failovers()) {
                if (f.withinBound() == null && !CUT_SHORT.equals(f.trigger())) {
                    why.add(f.triggerNanos() < 0 ? "the heal at index " + f.triggerIndex() + " has no time"
                            : "no leader after the heal at index " + f.triggerIndex() + " before the history ended, "
                              + "less than the bound " + Values.human(r.failoverBoundNanos()) + " later");
                }
            }
            if (r.maxOverlapNanos() >= 0 && r.overlaps().stream().anyMatch(o -> o.lengthNanos() < 0)) {
                why.add("overlaps without times cannot be held to max-overlap");
            }
            if (r.intervals().isEmpty()) {
                why.add("no acquire was acknowledged, so no leadership can be judged");
            }
            s.append("Undecided: ").append(String.join("; ", why)).append(". ");
        }
        s.append(r.intervals().size()).append(" leadership(s), ").append(r.failovers().size())
                .append(" heal(s)");
        long cutShort = r.failovers().stream().filter(f -> CUT_SHORT.equals(f.trigger())).count();
        if (cutShort > 0) {
            s.append(" (").append(cutShort).append(" cut short by the next fault within the bound: not judged)");
        }
        long worst = r.failovers().stream().mapToLong(Failover::failoverNanos).max().orElse(-1);
        if (worst >= 0) {
            s.append(" (slowest failover ").append(Values.human(worst)).append(")");
        }
        s.append(", ").append(r.overlaps().size()).append(" real-time overlap(s) of two leaders");
        if (!r.overlaps().isEmpty()) {
            LeaderOverlap longest = r.overlaps().stream()
                    .max(Comparator.comparingLong(LeaderOverlap::lengthNanos)).orElseThrow();
            long unfenced = r.overlaps().stream().filter(o -> !o.fencingWouldReject()).count();
            s.append(" (longest ").append(Values.human(longest.lengthNanos())).append(": ")
                    .append(longest.stale().label()).append(" still believed it led after ")
                    .append(longest.newer().label()).append(" acquired; ");
            if (longest.frozenNanos() > 0) {
                s.append(Values.human(longest.frozenNanos())).append(" of it frozen by a nemesis pause, ")
                        .append(Values.human(longest.awakeNanos())).append(" awake; ");
            }
            s
                    .append(unfenced == 0 ? "fencing tokens would have rejected every stale leader's writes"
                            : unfenced + " overlap(s) fencing could not separate")
                    .append(r.maxOverlapNanos() < 0 ? "; reported, not failed: inherent to lease-free recipes)"
                            : ")");
        }
        s.append('.');
        return s.toString();
    }

    /** An acquire ok with the interval it began. */
    private record Acquisition(Operation op, LeaderInterval interval) {
    }

    private static List<LeaderInterval> intervals(History history, List<Acquisition> acquisitions) {
        Map<Long, Operation> byCompletion = new HashMap<>();
        Map<Long, Operation> byInvoke = new HashMap<>();
        for (Operation op : history.operations()) {
            byInvoke.put(op.invokeIndex(), op);
            if (op.completeIndex() >= 0) {
                byCompletion.put(op.completeIndex(), op);
            }
        }
        Map<Integer, Acquisition> open = new HashMap<>();
        List<LeaderInterval> closed = new ArrayList<>();
        for (Op e : history.ops()) {
            if (e.isNemesis()) {
                continue;
            }
            if (e.type() == OpType.OK && "acquire".equals(e.f())) {
                Operation op = byCompletion.get(e.index());
                Map<?, ?> v = Values.map(op.output(), "the acquire result", op);
                long token = Values.longField(v, "token", "the acquire result", op);
                long czxid = Values.longField(v, "czxid", -1, "the acquire result", op);
                String node = Values.stringField(v, "node");
                LeaderInterval started = new LeaderInterval(e.process(), node == null ? "process " + e.process()
                        : node, token, czxid, e.index(), -1, e.time(), -1, null);
                Acquisition previous = open.put(e.process(), new Acquisition(op, started));
                if (previous != null) {
                    closed.add(end(previous, e, "acquired again"));
                }
                acquisitions.add(new Acquisition(op, started));
            } else if (e.type() == OpType.INVOKE && "release".equals(e.f())) {
                Acquisition a = open.remove(e.process());
                if (a != null) {
                    Object reason = e.value() instanceof Map<?, ?> m ? m.get("reason") : null;
                    closed.add(end(a, e, reason == null ? "released" : String.valueOf(reason)));
                }
            } else if (e.type() == OpType.INFO) {
                Acquisition a = open.remove(e.process());
                if (a != null) {
                    closed.add(end(a, e, "process retired by info of " + e.f()));
                }
            }
        }
        long endIndex = history.ops().isEmpty() ? 0 : history.ops().get(history.size() - 1).index() + 1;
        long endNanos = history.ops().isEmpty() ? -1 : history.ops().get(history.size() - 1).time();
        for (Acquisition a : open.values()) {
            LeaderInterval i = a.interval();
            closed.add(new LeaderInterval(i.process(), i.node(), i.token(), i.czxid(), i.startIndex(), endIndex,
                    i.startNanos(), endNanos, "still leading at end of history"));
        }
        closed.sort(Comparator.comparingLong(LeaderInterval::startIndex));
        // acquisitions carry the final (closed) intervals, so reports show where each ended
        Map<Long, LeaderInterval> byStart = new HashMap<>();
        closed.forEach(i -> byStart.put(i.startIndex(), i));
        acquisitions.replaceAll(a -> new Acquisition(a.op(), byStart.get(a.interval().startIndex())));
        return List.copyOf(closed);
    }

    private static LeaderInterval end(Acquisition a, Op at, String reason) {
        LeaderInterval i = a.interval();
        return new LeaderInterval(i.process(), i.node(), i.token(), i.czxid(), i.startIndex(), at.index(),
                i.startNanos(), at.time(), reason);
    }

    private static void duplicates(List<Acquisition> acquisitions, List<TokenViolation> out) {
        Map<Long, Acquisition> byToken = new HashMap<>();
        Map<Long, Acquisition> byCzxid = new HashMap<>();
        for (Acquisition a : acquisitions) {
            LeaderInterval i = a.interval();
            Acquisition t = byToken.putIfAbsent(i.token(), a);
            if (t != null && !t.interval().node().equals(i.node())) {
                out.add(new TokenViolation("duplicate-token", t.interval(), i, "two holders of token " + i.token()
                        + ": " + t.interval().label() + " and " + i.label()));
            }
            if (i.czxid() >= 0) {
                Acquisition c = byCzxid.putIfAbsent(i.czxid(), a);
                if (c != null && !c.interval().node().equals(i.node())) {
                    out.add(new TokenViolation("duplicate-czxid", c.interval(), i, "two holders of czxid "
                            + i.czxid() + ": " + c.interval().label() + " and " + i.label()));
                }
            }
        }
    }

    /**
     * A token goes backwards when an acquisition that was invoked after another had completed got a lower token:
     * in any real-time order the later volunteer's znode was created after the earlier leader's.
     */
    private static void backwards(List<Acquisition> acquisitions, List<TokenViolation> out) {
        for (Acquisition later : acquisitions) {
            Acquisition worst = null;
            for (Acquisition earlier : acquisitions) {
                if (earlier.op().completeIndex() < later.op().invokeIndex()
                        && earlier.interval().token() > later.interval().token()
                        && !earlier.interval().node().equals(later.interval().node())
                        && (worst == null || earlier.interval().token() > worst.interval().token())) {
                    worst = earlier;
                }
            }
            if (worst != null) {
                out.add(new TokenViolation("token-backwards", worst.interval(), later.interval(),
                        "token went backwards: " + later.interval().label() + " volunteered at index "
                        + later.op().invokeIndex() + ", after " + worst.interval().label() + " had acquired at index "
                        + worst.op().completeIndex() + ", yet got the lower token"));
            }
        }
    }

    /** A process the nemesis held frozen: from the invoke of a pause that named it to the next heal's info. */
    private record Freeze(String node, long fromNanos, long toNanos) {
    }

    /**
     * The windows in which the nemesis held a process frozen: a nemesis info whose value names a fault starting with
     * {@code pause} and lists the frozen processes in {@code nodes} (a client process is named as its candidate
     * names itself, {@code p<process>}; server pauses name servers, which no candidate is called) freezes them from
     * the pause's invoke until the next {@code heal} info, or the end of the history. Widest on both sides: what
     * is counted frozen is never counted against max-overlap.
     */
    private static List<Freeze> freezes(History history) {
        List<Op> nemesis = history.nemesisOps();
        long end = history.ops().isEmpty() ? -1 : history.ops().get(history.size() - 1).time();
        List<Freeze> out = new ArrayList<>();
        Op lastInvoke = null;
        for (int i = 0; i < nemesis.size(); i++) {
            Op o = nemesis.get(i);
            if (o.type() == OpType.INVOKE) {
                lastInvoke = o;
                continue;
            }
            if (o.type() != OpType.INFO || "heal".equals(o.f()) || !(o.value() instanceof Map<?, ?> v)
                    || !(v.get("fault") instanceof String fault) || !fault.startsWith("pause")
                    || !(v.get("nodes") instanceof List<?> nodes)) {
                continue;
            }
            long from = lastInvoke != null && lastInvoke.f().equals(o.f()) ? lastInvoke.time() : o.time();
            long to = end;
            for (int j = i + 1; j < nemesis.size(); j++) {
                Op h = nemesis.get(j);
                if (h.type() == OpType.INFO && "heal".equals(h.f())) {
                    to = h.time();
                    break;
                }
            }
            if (from < 0 || to < 0) {
                continue;
            }
            for (Object node : nodes) {
                out.add(new Freeze(String.valueOf(node), from, to));
            }
        }
        return out;
    }

    private static List<LeaderOverlap> overlaps(List<LeaderInterval> intervals, List<Freeze> freezes) {
        List<LeaderOverlap> out = new ArrayList<>();
        for (int x = 0; x < intervals.size(); x++) {
            for (int y = x + 1; y < intervals.size(); y++) {
                LeaderInterval a = intervals.get(x);
                LeaderInterval b = intervals.get(y);
                if (a.process() == b.process()) {
                    continue;
                }
                LeaderInterval starter = a.startIndex() >= b.startIndex() ? a : b;
                LeaderInterval ender = a.endIndex() <= b.endIndex() ? a : b;
                if (starter.startIndex() >= ender.endIndex()) {
                    continue;
                }
                boolean timed = starter.startNanos() >= 0 && ender.endNanos() >= 0;
                long length = timed ? Math.max(0, ender.endNanos() - starter.startNanos()) : -1;
                LeaderInterval stale = a.token() <= b.token() ? a : b;
                LeaderInterval newer = stale == a ? b : a;
                long frozen = -1;
                if (timed) {
                    frozen = 0;
                    for (Freeze f : freezes) {
                        if (f.node().equals(stale.node())) {
                            frozen += Math.max(0, Math.min(f.toNanos(), ender.endNanos())
                                    - Math.max(f.fromNanos(), starter.startNanos()));
                        }
                    }
                    frozen = Math.min(frozen, length);
                }
                out.add(new LeaderOverlap(stale, newer, starter.startIndex(), starter.startNanos(), length,
                        stale.token() < newer.token(), frozen, timed ? length - frozen : -1));
            }
        }
        return out;
    }

    /** The trigger of a heal whose healed window ended (a new fault) before the failover bound: not judged. */
    static final String CUT_SHORT = "heal (cut short by the next fault: not judged)";

    private static Op nextFaultAfter(Op heal, List<Op> nemesis) {
        for (Op o : nemesis) {
            if (o.index() > heal.index() && o.type() == OpType.INVOKE && !"heal".equals(o.f())) {
                return o;
            }
        }
        return null;
    }

    private static Failover afterHeal(Op heal, List<LeaderInterval> intervals, List<Acquisition> acquisitions,
                                      long boundNanos, long endNanos) {
        // of the leaders in force at the heal, name the newest: an older one may be a stale leader yet to learn
        LeaderInterval inForce = null;
        for (LeaderInterval i : intervals) {
            if (i.holdsAt(heal.index()) && (inForce == null || i.token() > inForce.token())) {
                inForce = i;
            }
        }
        if (inForce != null) {
            return new Failover("heal", heal.index(), heal.time(), inForce, heal.time() < 0 ? -1 : 0,
                    heal.time() < 0 ? null : Boolean.TRUE);
        }
        Acquisition next = nextAcquisition(heal.index(), acquisitions);
        if (heal.time() < 0) {
            return new Failover("heal", heal.index(), -1, next == null ? null : next.interval(), -1, null);
        }
        if (next != null && next.interval().startNanos() >= 0) {
            long took = next.interval().startNanos() - heal.time();
            return new Failover("heal", heal.index(), heal.time(), next.interval(), took, took <= boundNanos);
        }
        boolean boundElapsed = endNanos >= 0 && endNanos - heal.time() > boundNanos;
        return new Failover("heal", heal.index(), heal.time(), null, -1, boundElapsed ? Boolean.FALSE : null);
    }

    private static Failover afterFault(Op fault, List<Acquisition> acquisitions) {
        Acquisition next = nextAcquisition(fault.index(), acquisitions);
        long took = next == null || fault.time() < 0 || next.interval().startNanos() < 0 ? -1
                : next.interval().startNanos() - fault.time();
        return new Failover(fault.f(), fault.index(), fault.time(), next == null ? null : next.interval(), took,
                null);
    }

    private static Acquisition nextAcquisition(long afterIndex, List<Acquisition> acquisitions) {
        for (Acquisition a : acquisitions) {
            if (a.interval().startIndex() > afterIndex) {
                return a;
            }
        }
        return null;
    }
}
