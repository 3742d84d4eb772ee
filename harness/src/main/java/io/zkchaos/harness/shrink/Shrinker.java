package io.zkchaos.harness.shrink;

import io.zkchaos.nemesis.schedule.FaultSchedule;
import io.zkchaos.nemesis.schedule.FaultSchedule.Window;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * Delta debugging of a finding, as property-based testing tools shrink theirs: from a run that found something, the
 * smallest run that still finds the same kind of thing. First no fault at all (the run as {@code --nemesis none}): a
 * finding that comes back without any is a plain bug, not a fault's ({@link Result#plainBug}). Then the moves, each
 * tried on the smallest candidate so far: drop faults (Zeller's ddmin over the schedule's faults, the main phase
 * ending where the next dropped fault would have begun), end the main phase sooner after the last fault, move the
 * faults earlier (the time before the first and between them halved), hold each fault half as long, fewer nodes (5
 * to 3, when every fault can act on 3), fewer clients, fewer keys; rounds of them until none helps or the budget is
 * spent. No move leaves less than a margin after the last fault ({@link #margin}): what a fault broke may show only
 * after its heal.
 *
 * <p>A real run is not deterministic, so each candidate is tried up to {@link KeepRate#tries} times and kept only if
 * at least {@link KeepRate#needed} of them reproduce one of the finding's kinds having exercised enough for that to
 * count ({@link TrialRun#reproduces}): one lucky reproduction on a loaded machine would shrink too far, to a run that
 * seldom finds it again. What a try is, is the caller's ({@link Trial}): a real run, or a function in a test.
 */
public final class Shrinker {

    /** The least time kept before the first fault, between faults and after the last. */
    static final long FLOOR_MILLIS = 1000;
    /** At most this many rounds of every move. */
    static final int ROUNDS = 3;
    /** The least margin after the last fault's stop is done (more for a fault held longer: {@link #margin}). */
    static final long MARGIN_MILLIS = 5000;

    /**
     * How often a candidate must reproduce to be kept: at least {@code needed} of up to {@code tries} tries
     * ({@code --keep-rate 2/3}). Tries stop once the candidate is kept, or once it no longer can be.
     *
     * @param needed the reproductions it takes, at least 1
     * @param tries  the most tries, at least {@code needed}
     */
    public record KeepRate(int needed, int tries) {
        /** The default: 2 of 3. */
        public static final KeepRate DEFAULT = new KeepRate(2, 3);

        public KeepRate {
            if (needed < 1 || tries < needed) {
                throw new IllegalArgumentException("keep-rate must be N/K with 1 <= N <= K (reproductions of tries), "
                        + "got " + needed + "/" + tries);
            }
        }

        /**
         * {@code 2/3}.
         *
         * @throws IllegalArgumentException naming the text that is not N/K
         */
        public static KeepRate parse(String text) {
            String[] parts = text == null ? new String[0] : text.trim().split("/", -1);
            try {
                if (parts.length == 2) {
                    return new KeepRate(Integer.parseInt(parts[0].trim()), Integer.parseInt(parts[1].trim()));
                }
            } catch (NumberFormatException e) {
                // said below
            }
            throw new IllegalArgumentException("keep-rate must be N/K (reproductions of tries, e.g. 2/3), got '"
                    + text + "'");
        }

        @Override
        public String toString() {
            return needed + "/" + tries;
        }
    }

    /**
     * A run to try: its faults and its size.
     *
     * @param schedule the faults
     * @param size     the ensemble, the clients and the main phase
     */
    public record Candidate(FaultSchedule schedule, Size size) {

        public Candidate {
            Objects.requireNonNull(schedule, "schedule");
            Objects.requireNonNull(size, "size");
        }

        /** One line for people: the faults with their times, the main phase, nodes, clients, keys. */
        public String describe() {
            List<String> faults = schedule.faults().stream().map(Shrinker::window).toList();
            return faults.size() + " fault(s)" + (faults.isEmpty() ? "" : " (" + String.join(", ", faults) + ")")
                    + ", main phase " + seconds(size.mainPhaseMillis()) + " s, " + size.describe();
        }

        Candidate with(List<Window> windows, long mainPhaseMillis) {
            return new Candidate(schedule.withFaults(windows), size.withMainPhase(mainPhaseMillis));
        }

        Candidate with(Size s) {
            return new Candidate(schedule, s);
        }
    }

    /**
     * How big a run is.
     *
     * @param nodes           ensemble size
     * @param clients         client processes
     * @param keys            registers, or 0 when the workload has none to shrink
     * @param mainPhaseMillis the main phase (the time limit)
     */
    public record Size(int nodes, int clients, int keys, long mainPhaseMillis) {

        /** {@code 3 nodes, 1 client, 2 keys}. */
        public String describe() {
            return nodes + " nodes, " + clients + (clients == 1 ? " client" : " clients")
                    + (keys > 0 ? ", " + keys + (keys == 1 ? " key" : " keys") : "");
        }

        Size withMainPhase(long ms) {
            return new Size(nodes, clients, keys, ms);
        }
    }

    /** One try of a candidate. */
    @FunctionalInterface
    public interface Trial {
        TrialRun run(Candidate candidate) throws InterruptedException;
    }

    /** What the faults allow. */
    public interface Rules {
        /** The shortest a fault may be held (at least {@link #FLOOR_MILLIS}). */
        long minHoldMillis(String fault);

        /** Whether a fault can act on an ensemble of {@code nodes}. */
        boolean supports(String fault, int nodes);
    }

    /**
     * One candidate tried.
     *
     * @param number    its number, from 1
     * @param move      what was changed, in words
     * @param candidate the candidate
     * @param tries     every try, in order
     * @param kept      whether enough tries reproduced the finding ({@link KeepRate}), so that it became the
     *                  smallest so far
     */
    public record Step(int number, String move, Candidate candidate, List<TrialRun> tries, boolean kept) {
        public Step {
            tries = List.copyOf(tries);
        }
    }

    /**
     * What shrinking came to.
     *
     * @param original     where it began
     * @param smallest     the smallest candidate that reproduced (the original when none did)
     * @param smallestRun  the last try that reproduced it, or null when no candidate was kept
     * @param steps        every candidate tried
     * @param budgetSpent  whether it stopped because the budget was spent (else: no move helped any more)
     */
    public record Result(Candidate original, Candidate smallest, TrialRun smallestRun, List<Step> steps,
                         boolean budgetSpent) {
        public Result {
            steps = List.copyOf(steps);
        }

        /** Whether the finding came back with no fault at all: a plain bug, not a fault's. */
        public boolean plainBug() {
            return smallestRun != null && smallest.schedule().faults().isEmpty();
        }

        /** What {@link #plainBug} means, in the words the shrink prints and its page shows. */
        public static final String PLAIN_BUG = "reproduced with no fault: a plain bug, not a fault's";
    }

    private final Trial trial;
    private final Set<String> findings;
    private final KeepRate keep;
    private final BooleanSupplier spent;
    private final Rules rules;
    private final Consumer<Step> onStep;
    private final List<Step> steps = new ArrayList<>();
    /** Every candidate tried that did not reproduce: ddmin comes back to some, and a real run costs a minute. */
    private final Set<Candidate> failed = new HashSet<>();
    private Candidate current;
    private TrialRun currentRun;

    /**
     * @param trial    runs one try of a candidate
     * @param findings the kinds of finding to reproduce ({@code checker:kind}): any one of them counts
     * @param keep     how many of its tries must reproduce for a candidate to be kept
     * @param spent    whether the budget is spent (asked before every try)
     * @param rules    what the faults allow
     * @param onStep   told of every candidate once it is decided
     */
    public Shrinker(Trial trial, Set<String> findings, KeepRate keep, BooleanSupplier spent, Rules rules,
                    Consumer<Step> onStep) {
        if (findings.isEmpty()) {
            throw new IllegalArgumentException("nothing to shrink: the run found nothing (no invalid checker)");
        }
        this.trial = trial;
        this.findings = Set.copyOf(findings);
        this.keep = Objects.requireNonNull(keep, "keep");
        this.spent = spent;
        this.rules = rules;
        this.onStep = onStep;
    }

    /** Shrinks {@code original}; call once. */
    public Result shrink(Candidate original) throws InterruptedException {
        current = original;
        if (!original.schedule().faults().isEmpty()) {
            attempt("no fault at all (the run as --nemesis none)", current.with(List.of(),
                    current.size().mainPhaseMillis()));
        }
        for (int round = 0; round < ROUNDS && !spent.getAsBoolean(); round++) {
            boolean changed = dropFaults();
            changed |= endSooner();
            changed |= moveEarlier();
            changed |= holdShorter();
            changed |= smaller();
            if (!changed) {
                break;
            }
        }
        return new Result(original, current, currentRun, steps, spent.getAsBoolean());
    }

    /**
     * Tries {@code c} up to {@link KeepRate#tries} times and keeps it if at least {@link KeepRate#needed} tries
     * reproduce, stopping as soon as that is decided; a candidate that was not kept is not tried again (it is the whole
     * run, whatever came before, so a second attempt would only spend the budget).
     */
    private boolean attempt(String move, Candidate c) throws InterruptedException {
        if (c.equals(current) || failed.contains(c) || spent.getAsBoolean()) {
            return false;
        }
        List<TrialRun> runs = new ArrayList<>();
        TrialRun lastHit = null;
        int hits = 0;
        while (hits < keep.needed() && keep.needed() - hits <= keep.tries() - runs.size()
                && (runs.isEmpty() || !spent.getAsBoolean())) {
            TrialRun r = trial.run(c);
            runs.add(r);
            if (r.reproduces(findings)) {
                hits++;
                lastHit = r;
            }
        }
        boolean kept = hits >= keep.needed();
        Step step = new Step(steps.size() + 1, move, c, runs, kept);
        steps.add(step);
        onStep.accept(step);
        if (kept) {
            current = c;
            currentRun = lastHit;
        } else {
            failed.add(c);
        }
        return kept;
    }

    // ---- the moves ----

    /** ddmin over the faults: a subset, then the complements, at finer and finer grain. */
    private boolean dropFaults() throws InterruptedException {
        List<Window> ws = current.schedule().faults();
        boolean any = false;
        int n = 2;
        while (ws.size() >= 2 && !spent.getAsBoolean()) {
            List<List<Window>> chunks = split(ws, n);
            boolean reduced = false;
            for (List<Window> chunk : chunks) {
                if (attempt(keepMove(chunk, ws), keeping(chunk))) {
                    ws = chunk;
                    n = 2;
                    reduced = true;
                    break;
                }
            }
            if (!reduced && n > 2) {
                for (List<Window> chunk : chunks) {
                    List<Window> complement = new ArrayList<>(ws);
                    complement.removeAll(chunk);
                    if (attempt(keepMove(complement, ws), keeping(complement))) {
                        ws = complement;
                        n = Math.max(n - 1, 2);
                        reduced = true;
                        break;
                    }
                }
            }
            any |= reduced;
            if (!reduced) {
                if (n >= ws.size()) {
                    break;
                }
                n = Math.min(2 * n, ws.size());
            }
        }
        return any;
    }

    private static String keepMove(List<Window> kept, List<Window> of) {
        return "keep " + kept.size() + " of " + of.size() + " faults (" + kept.stream().map(Window::fault)
                .collect(Collectors.joining(", ")) + ")";
    }

    /**
     * The current candidate with only {@code kept} of its faults, at their times; the main phase ends where the first
     * dropped fault after the last kept one began (what followed that fault until the next one is kept too), or
     * where the last kept fault ends when faults overlap and one ends later.
     */
    private Candidate keeping(List<Window> kept) {
        List<Window> all = current.schedule().faults();
        Window last = kept.get(kept.size() - 1);
        long end = current.size().mainPhaseMillis();
        int after = all.indexOf(last) + 1;
        if (kept.stream().noneMatch(w -> w.endMillis() == FaultSchedule.AT_FINAL_HEAL) && after < all.size()) {
            Window endsLast = kept.stream().max(java.util.Comparator.comparingLong(Window::endMillis)).orElseThrow();
            end = Math.max(all.get(after).startMillis(), endsLast.endMillis() + margin(endsLast));
        }
        return current.with(kept, end);
    }

    /**
     * The main phase ends a {@link #margin} after the last fault, or else half as much sooner (not below the margin).
     */
    private boolean endSooner() throws InterruptedException {
        List<Window> ws = current.schedule().faults();
        if (ws.isEmpty() || ws.stream().anyMatch(w -> w.endMillis() == FaultSchedule.AT_FINAL_HEAL)) {
            return false;
        }
        // the fault that ends last (with overlapping faults, not always the last to start)
        Window last = ws.stream().max(java.util.Comparator.comparingLong(Window::endMillis)).orElseThrow();
        long lastEnd = last.endMillis();
        long least = margin(last);
        long tail = current.size().mainPhaseMillis() - lastEnd;
        if (tail <= least) {
            return false;
        }
        if (attempt(mainPhaseMove(lastEnd + least), current.with(ws, lastEnd + least))) {
            return true;
        }
        long half = lastEnd + Math.max(least, tail / 2);
        return half < current.size().mainPhaseMillis() && attempt(mainPhaseMove(half), current.with(ws, half));
    }

    /**
     * The least time the main phase goes on after {@code last} ends: the time its stop took (a stop that waits for
     * nodes to serve takes a while), then as long as it was held and at least {@link #MARGIN_MILLIS}: what a fault
     * broke may show only after its heal, and a shrunk run that ends at once would seldom find it again.
     */
    static long margin(Window last) {
        return last.stopTookMillis() + Math.max(MARGIN_MILLIS, last.holdMillis());
    }

    private String mainPhaseMove(long to) {
        return "main phase " + seconds(current.size().mainPhaseMillis()) + " s -> " + seconds(to) + " s";
    }

    /**
     * The time before the first fault and between faults halved (not below the floor), while that reproduces. A fault
     * that starts while another holds keeps its place beside it: overlapping faults move together.
     */
    private boolean moveEarlier() throws InterruptedException {
        boolean any = false;
        while (!spent.getAsBoolean()) {
            List<Window> ws = current.schedule().faults();
            List<Window> moved = new ArrayList<>();
            long previousEnd = 0;
            long shift = 0;
            for (Window w : ws) {
                long gap = w.startMillis() - shift - previousEnd;
                long newGap = gap <= 0 ? gap : Math.max(Math.min(gap, FLOOR_MILLIS), gap / 2);
                shift += gap - newGap;
                Window m = w.at(w.startMillis() - shift, w.endMillis() == FaultSchedule.AT_FINAL_HEAL
                        ? FaultSchedule.AT_FINAL_HEAL : w.endMillis() - shift);
                moved.add(m);
                // a fault the final heal ends holds over every later one
                previousEnd = Math.max(previousEnd, m.endMillis() == FaultSchedule.AT_FINAL_HEAL ? Long.MAX_VALUE / 2
                        : m.endMillis());
            }
            if (shift == 0 || !attempt("faults earlier: the time before and between them halved (first at "
                    + seconds(moved.get(0).startMillis()) + " s)", current.with(moved,
                    current.size().mainPhaseMillis() - shift))) {
                return any;
            }
            any = true;
        }
        return any;
    }

    /**
     * Each fault held half as long (not below what it needs), the later ones moved up by as much; a fault that
     * overlaps another is shortened in place (moving the later ones could bring two of one family together), and
     * {@link #moveEarlier} takes up the time it freed.
     */
    private boolean holdShorter() throws InterruptedException {
        boolean any = false;
        for (int i = 0; i < current.schedule().faults().size() && !spent.getAsBoolean(); i++) {
            List<Window> ws = current.schedule().faults();
            Window w = ws.get(i);
            long hold = w.endMillis() == FaultSchedule.AT_FINAL_HEAL ? current.size().mainPhaseMillis()
                    - w.startMillis() : w.holdMillis();
            long shorter = Math.max(Math.max(rules.minHoldMillis(w.fault()), FLOOR_MILLIS), hold / 2);
            long saved = hold - shorter;
            if (saved <= 0) {
                continue;
            }
            if (overlapsAnother(ws, w)) {
                if (w.endMillis() != FaultSchedule.AT_FINAL_HEAL) {
                    List<Window> shortened = new ArrayList<>(ws);
                    shortened.set(i, w.at(w.startMillis(), w.startMillis() + shorter));
                    any |= attempt("hold " + w.fault() + " " + seconds(hold) + " s -> " + seconds(shorter) + " s",
                            current.with(shortened, current.size().mainPhaseMillis()));
                }
                continue;
            }
            List<Window> moved = new ArrayList<>();
            for (int j = 0; j < ws.size(); j++) {
                Window x = ws.get(j);
                if (j < i) {
                    moved.add(x);
                } else if (j == i) {
                    moved.add(x.endMillis() == FaultSchedule.AT_FINAL_HEAL ? x
                            : x.at(x.startMillis(), x.startMillis() + shorter));
                } else {
                    moved.add(x.at(x.startMillis() - saved, x.endMillis() == FaultSchedule.AT_FINAL_HEAL
                            ? FaultSchedule.AT_FINAL_HEAL : x.endMillis() - saved));
                }
            }
            any |= attempt("hold " + w.fault() + " " + seconds(hold) + " s -> " + seconds(shorter) + " s",
                    current.with(moved, current.size().mainPhaseMillis() - saved));
        }
        return any;
    }

    /** Whether another fault holds at some time {@code w} does. */
    private static boolean overlapsAnother(List<Window> ws, Window w) {
        return ws.stream().anyMatch(x -> x != w && x.startMillis() < end(w) && w.startMillis() < end(x));
    }

    private static long end(Window w) {
        return w.endMillis() == FaultSchedule.AT_FINAL_HEAL ? Long.MAX_VALUE : w.endMillis();
    }

    /** Fewer nodes (5 to 3, when every fault can act on 3), then fewer clients, then fewer keys. */
    private boolean smaller() throws InterruptedException {
        Size s = current.size();
        boolean any = false;
        if (s.nodes() > 3 && current.schedule().faultNames().stream().allMatch(f -> rules.supports(f, 3))) {
            any |= attempt("nodes " + s.nodes() + " -> 3", current.with(new Size(3, s.clients(), s.keys(),
                    s.mainPhaseMillis())));
        }
        while (current.size().clients() > 1 && !spent.getAsBoolean()) {
            Size c = current.size();
            if (!attempt("clients " + c.clients() + " -> " + c.clients() / 2, current.with(new Size(c.nodes(),
                    c.clients() / 2, c.keys(), c.mainPhaseMillis())))) {
                break;
            }
            any = true;
        }
        while (current.size().keys() > 1 && !spent.getAsBoolean()) {
            Size k = current.size();
            if (!attempt("keys " + k.keys() + " -> " + k.keys() / 2, current.with(new Size(k.nodes(), k.clients(),
                    k.keys() / 2, k.mainPhaseMillis())))) {
                break;
            }
            any = true;
        }
        return any;
    }

    /** {@code ws} in {@code n} chunks of nearly equal size, in order. */
    static <T> List<List<T>> split(List<T> ws, int n) {
        List<List<T>> chunks = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < n; i++) {
            int end = start + (ws.size() - start) / (n - i);
            if (end > start) {
                chunks.add(List.copyOf(ws.subList(start, end)));
            }
            start = end;
        }
        return chunks;
    }

    /** A fault and its times: {@code isolate-leader 5.0–6.2 s} ({@code end}: the final heal ends it). */
    static String window(Window w) {
        return w.fault() + " " + seconds(w.startMillis()) + "–" + (w.endMillis() == FaultSchedule.AT_FINAL_HEAL ? "end"
                : seconds(w.endMillis())) + " s";
    }

    static String seconds(long millis) {
        return String.format(Locale.ROOT, "%.1f", millis / 1000.0);
    }
}
