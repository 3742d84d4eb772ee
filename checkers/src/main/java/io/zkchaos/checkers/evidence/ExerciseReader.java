package io.zkchaos.checkers.evidence;

import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.checkers.history.Operation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Reads what a run exercised from its history (docs/history-conventions.md): the nemesis' actions (process -1: a
 * fault's start is an {@code invoke} of its name then an {@code info} with what it did or {@code {"error": ...}};
 * {@code heal} ends a fault, and the heal whose invoke names {@code all} is the final one; frame triggers armed and
 * fired come in the heals' {@code triggers}) and every client operation, placed against the windows in which the
 * faults were in force. What the system felt of each start applied comes in its record's {@code felt} (measured as it
 * was done) and in its heal's (measured as the heal ended it; a final heal's entries name their fault): a start is
 * felt when one of its measures says so or none was taken.
 */
final class ExerciseReader {

    /** Processes from here up are the harness's own reads after the run, not clients. */
    static final int HARNESS_PROCESS_BASE = io.zkchaos.checkers.history.History.HARNESS_PROCESS_BASE;
    /** The invoke value of the nemesis' final heal. */
    static final String FINAL_HEAL = "all";
    /** The outcome a start's error carries when it broke rather than found nothing to act on. */
    static final String FAILED = "failed";

    private ExerciseReader() {
    }

    /** A fault in force from the index its start was done to the index its heal began. */
    private record Window(String fault, long from, long to) {
    }

    private static final class FaultCounts {
        long applied;
        long couldNotAct;
        long failed;
        final Set<String> reasons = new LinkedHashSet<>();
        long okUnder;
        long invokedUnder;
        long armed;
        long fired;
        long felt;
        long measured;
        final List<String> unfelt = new ArrayList<>();
        /** The measures of the start applied last, until its heal ends it; null when none is open. */
        Judging open;

        /** Judges the open start, if any: felt unless every measure of it says not. */
        void judge(String fault) {
            if (open == null) {
                return;
            }
            if (open.measures > 0) {
                measured++;
            }
            if (open.measures == 0 || open.anyFelt) {
                felt++;
            } else {
                unfelt.add(fault + " on " + String.join("; ", open.notFelt));
            }
            open = null;
        }
    }

    /** What was measured of one fault start: how many measures, whether any says felt, those that say not. */
    private static final class Judging {
        int measures;
        boolean anyFelt;
        final List<String> notFelt = new ArrayList<>();

        void add(Object entry) {
            if (!(entry instanceof Map<?, ?> m) || !(m.get("felt") instanceof Boolean felt)) {
                return;
            }
            measures++;
            if (felt) {
                anyFelt = true;
            } else {
                notFelt.add(m.get("node") + " " + m.get("what"));
            }
        }
    }

    static Exercised read(History history) {
        Map<String, FaultCounts> faults = new LinkedHashMap<>();
        List<Window> windows = new ArrayList<>();
        Map<String, Long> open = new HashMap<>(); // fault -> index its start was done
        long finalHealBegan = -1;
        String startInvoked = null;
        boolean healIsFinal = false;
        Object healing = null; // the fault the heal under way ends (its invoke's value)
        for (Op op : history.nemesisOps()) {
            if ("trigger".equals(op.f())) {
                continue; // a fired trigger is counted from the heal that disarms it (armed and fired alike)
            }
            if ("heal".equals(op.f())) {
                if (op.type() == OpType.INVOKE) {
                    healIsFinal = FINAL_HEAL.equals(op.value());
                    healing = op.value();
                    // the fault ends for the clients when its heal begins
                    if (healIsFinal) {
                        open.forEach((f, from) -> windows.add(new Window(f, from, op.index())));
                        open.clear();
                        // After the final heal = invoked once it began: a restart it waits for can take longer, on a
                        // loaded machine, than the clients have left, while the rest of the ensemble serves.
                        finalHealBegan = op.index();
                    } else if (op.value() instanceof String f && open.containsKey(f)) {
                        windows.add(new Window(f, open.remove(f), op.index()));
                    }
                } else {
                    countTriggers(op.value(), faults);
                    judgeHealed(op.value(), healIsFinal ? null : healing, faults);
                }
                continue;
            }
            if (op.type() == OpType.INVOKE) {
                startInvoked = op.f();
                faults.computeIfAbsent(op.f(), f -> new FaultCounts());
                continue;
            }
            if (!op.f().equals(startInvoked)) {
                continue; // not a start's completion we saw begin
            }
            startInvoked = null;
            FaultCounts c = faults.get(op.f());
            c.judge(op.f()); // a start not healed before this one: judged on what it had
            if (op.value() == null) {
                c.couldNotAct++;
                c.reasons.add("no record of what it did");
            } else if (!(op.value() instanceof Map<?, ?> did)) {
                // a record not yet turned into plain data (an in-memory history): it acted, on nodes unseen here,
                // felt as far as this can tell (nothing measured)
                c.applied++;
                c.open = new Judging();
                open.put(op.f(), op.index());
            } else if (did.containsKey("error")) {
                if (FAILED.equals(did.get("outcome"))) {
                    c.failed++;
                } else {
                    c.couldNotAct++;
                }
                c.reasons.add(String.valueOf(did.get("error")));
            } else if (did.get("nodes") instanceof List<?> nodes && nodes.isEmpty()) {
                c.couldNotAct++;
                c.reasons.add("acted on no node (" + did.get("description") + ")");
            } else {
                c.applied++;
                c.open = new Judging();
                if (did.get("felt") instanceof List<?> felt) {
                    felt.forEach(c.open::add);
                }
                open.put(op.f(), op.index());
            }
        }
        faults.forEach((f, c) -> c.judge(f)); // never healed: judged on what their starts measured
        long end = history.ops().isEmpty() ? 0 : history.ops().get(history.size() - 1).index() + 1;
        open.forEach((f, from) -> windows.add(new Window(f, from, end))); // never healed: in force to the end
        return tally(history, faults, windows, finalHealBegan);
    }

    private static Exercised tally(History history, Map<String, FaultCounts> faults, List<Window> windows,
                                   long finalHealBegan) {
        Map<String, OpCounts[]> byFunction = new LinkedHashMap<>();
        Map<String, Map<String, OpCounts>> byFault = new HashMap<>(); // function -> fault -> in flight under it
        Map<String, OpCounts> harness = new TreeMap<>();
        Set<Integer> retired = new HashSet<>();
        for (Operation op : history.operations()) {
            if (op.process() >= HARNESS_PROCESS_BASE) {
                harness.merge(op.f(), OpCounts.NONE.plus(op), OpCounts::plus);
                continue;
            }
            if (op.isInfo()) {
                retired.add(op.process());
            }
            OpCounts[] c = byFunction.computeIfAbsent(op.f(), f -> new OpCounts[] {
                    OpCounts.NONE, OpCounts.NONE, OpCounts.NONE, OpCounts.NONE});
            c[0] = c[0].plus(op);
            boolean afterHeal = finalHealBegan >= 0 && op.invokeIndex() > finalHealBegan;
            if (afterHeal) {
                c[3] = c[3].plus(op);
            } else {
                c[1] = c[1].plus(op);
            }
            long completed = op.completeIndex() < 0 ? Long.MAX_VALUE : op.completeIndex();
            Set<String> under = new HashSet<>();
            for (Window w : windows) {
                if (op.invokeIndex() < w.to() && completed > w.from()) {
                    under.add(w.fault());
                }
            }
            if (!under.isEmpty()) {
                c[2] = c[2].plus(op);
                Map<String, OpCounts> mine = byFault.computeIfAbsent(op.f(), f -> new TreeMap<>());
                for (String f : under) {
                    mine.merge(f, OpCounts.NONE.plus(op), OpCounts::plus);
                    FaultCounts fc = faults.get(f);
                    fc.invokedUnder++;
                    if (op.isOk()) {
                        fc.okUnder++;
                    }
                }
            }
        }
        List<FunctionTally> functions = new ArrayList<>();
        byFunction.forEach((f, c) -> functions.add(new FunctionTally(f, c[0], c[1], c[2], c[3],
                byFault.getOrDefault(f, Map.of()))));
        List<FaultTally> tallies = new ArrayList<>();
        faults.forEach((f, c) -> tallies.add(new FaultTally(f, c.applied, c.couldNotAct, c.failed,
                List.copyOf(c.reasons), c.okUnder, c.invokedUnder, c.armed, c.fired, c.felt, c.measured, c.unfelt)));
        return new Exercised(functions, harness, tallies, finalHealBegan >= 0, retired.size(), Map.of(), -1,
                Map.of());
    }

    /**
     * Adds what a heal measured to the starts it ends and judges them: a fault's own stop ({@code fault}) ends that
     * fault's start; the final heal ({@code fault} null) ends every open one, its measures each naming their fault.
     */
    private static void judgeHealed(Object healed, Object fault, Map<String, FaultCounts> faults) {
        List<?> felt = healed instanceof Map<?, ?> m && m.get("felt") instanceof List<?> l ? l : List.of();
        if (fault != null) {
            FaultCounts c = faults.get(String.valueOf(fault));
            if (c != null && c.open != null) {
                felt.forEach(c.open::add);
                c.judge(String.valueOf(fault));
            }
            return;
        }
        for (Object entry : felt) {
            if (entry instanceof Map<?, ?> e && e.get("fault") instanceof String f && faults.containsKey(f)
                    && faults.get(f).open != null) {
                faults.get(f).open.add(entry);
            }
        }
        faults.forEach((f, c) -> c.judge(f));
    }

    /** Counts the frame triggers a heal reports as disarmed: each armed, and whether it fired. */
    private static void countTriggers(Object healed, Map<String, FaultCounts> faults) {
        if (!(healed instanceof Map<?, ?> m) || !(m.get("triggers") instanceof List<?> triggers)) {
            return;
        }
        for (Object t : triggers) {
            if (t instanceof Map<?, ?> trigger && trigger.get("fault") instanceof String fault) {
                FaultCounts c = faults.computeIfAbsent(fault, f -> new FaultCounts());
                c.armed++;
                if (Boolean.TRUE.equals(trigger.get("fired"))) {
                    c.fired++;
                }
            }
        }
    }
}
