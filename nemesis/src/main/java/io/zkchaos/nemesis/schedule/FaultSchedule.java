package io.zkchaos.nemesis.schedule;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.zkchaos.checkers.gen.Gen;
import io.zkchaos.checkers.gen.Gen.Cursor;
import io.zkchaos.checkers.gen.Gen.Next;
import io.zkchaos.nemesis.Aim;
import io.zkchaos.nemesis.FaultOp;
import io.zkchaos.nemesis.FaultRecord;
import io.zkchaos.nemesis.NemesisDriver;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * A fault schedule as data: every fault from its start to its stop, on the schedule's clock (milliseconds since the
 * main phase began, when the nemesis started), with the choices its start and its stop made. A run writes the one it
 * executed ({@link #executed}; {@code schedule.json}); {@link #gen()} executes one again: each fault starts and stops
 * at its times, and makes the same choices ({@link Aim}), its nodes found by role or by name ({@link #targets}).
 *
 * @param nemesis the nemesis whose faults these are (the run's {@code --nemesis}: {@code mixed}, {@code kill-leader} ...)
 * @param targets how a replay finds the nodes the aims name: {@code role} (the default) or {@code name}
 * @param faults  the faults, in start order; they may overlap ({@code --compose}), but two windows of one fault never
 *                do (nor, as the run checks against its nemesis, two of one family)
 */
public record FaultSchedule(String nemesis, Aim.Targets targets, List<Window> faults) {

    /** The {@code endMillis} of a fault that the final heal ended, at the end of the main phase. */
    public static final long AT_FINAL_HEAL = -1;

    public FaultSchedule {
        if (nemesis == null || nemesis.isBlank()) {
            throw new IllegalArgumentException("schedule: nemesis must name the nemesis the faults are from");
        }
        targets = targets == null ? Aim.Targets.ROLE : targets;
        faults = faults == null ? List.of() : List.copyOf(faults);
        Map<String, Window> last = new java.util.HashMap<>();
        for (int i = 0; i < faults.size(); i++) {
            Window w = Objects.requireNonNull(faults.get(i), "schedule: fault #" + (i + 1) + " is null");
            if (i > 0 && w.startMillis() < faults.get(i - 1).startMillis()) {
                throw new IllegalArgumentException("schedule: fault #" + (i + 1) + " (" + w.fault() + ") starts at "
                        + w.startMillis() + " ms, before fault #" + i + " (" + faults.get(i - 1).fault() + ") at "
                        + faults.get(i - 1).startMillis() + " ms: the faults are listed in start order");
            }
            Window before = last.put(w.fault(), w);
            if (before != null && (before.endMillis() == AT_FINAL_HEAL || w.startMillis() < before.endMillis())) {
                throw new IllegalArgumentException("schedule: fault #" + (i + 1) + " (" + w.fault() + ") starts at "
                        + w.startMillis() + " ms, before the " + w.fault() + " started at " + before.startMillis()
                        + " ms ends " + (before.endMillis() == AT_FINAL_HEAL ? "(at the final heal)" : "at "
                        + before.endMillis() + " ms") + ": one fault is not in force twice at once");
            }
        }
    }

    /**
     * One fault, from its start to its stop.
     *
     * @param fault       the fault's name
     * @param startMillis when it started, on the schedule's clock
     * @param endMillis   when it was stopped, or {@link #AT_FINAL_HEAL} when the final heal ended it
     * @param description what its start did, in words (for people; not replayed)
     * @param nodes       the nodes its start acted on, by name (for people; not replayed)
     * @param roles       their roles when it began: {@code leader}, {@code follower}, ... (for people; not replayed)
     * @param start       the choices its start made, repeated on a replay; null: drawn from the seed
     * @param stop        the choices its stop made, repeated on a replay; null: drawn from the seed
     * @param fired       what its protocol triggers did when they fired (for people; the moment is in {@code start})
     * @param error       why its start could not act, or null (a replay tries it again)
     * @param stopTookMillis how long its stop took to act (a catch-up waits for nodes to serve): a main phase that
     *                    ends sooner after it than that ends before the stop is done (0 when not known)
     */
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    public record Window(String fault, long startMillis, long endMillis, String description, List<String> nodes,
                         SortedMap<String, String> roles, Aim start, Aim stop, List<String> fired, String error,
                         long stopTookMillis) {

        public Window {
            if (fault == null || fault.isBlank()) {
                throw new IllegalArgumentException("schedule: a fault without a name");
            }
            if (startMillis < 0) {
                throw new IllegalArgumentException("schedule: fault " + fault + " starts at " + startMillis
                        + " ms; times are 0 or more");
            }
            if (endMillis != AT_FINAL_HEAL && endMillis < startMillis) {
                throw new IllegalArgumentException("schedule: fault " + fault + " ends at " + endMillis
                        + " ms, before it starts at " + startMillis + " ms (-1: at the final heal)");
            }
            nodes = nodes == null ? List.of() : List.copyOf(nodes);
            roles = roles == null ? new TreeMap<>() : java.util.Collections.unmodifiableSortedMap(new TreeMap<>(roles));
            fired = fired == null ? List.of() : List.copyOf(fired);
        }

        /** A fault with its times only: every choice drawn from the seed. */
        public static Window of(String fault, long startMillis, long endMillis) {
            return new Window(fault, startMillis, endMillis, null, null, null, null, null, null, null, 0);
        }

        /** The same fault at other times, with the same choices. */
        public Window at(long start, long end) {
            return new Window(fault, start, end, description, nodes, roles, this.start, stop, fired, error,
                    stopTookMillis);
        }

        /** How long it is held, or -1 when the final heal ends it. */
        public long holdMillis() {
            return endMillis == AT_FINAL_HEAL ? -1 : endMillis - startMillis;
        }
    }

    /** The same schedule with other faults. */
    public FaultSchedule withFaults(List<Window> windows) {
        return new FaultSchedule(nemesis, targets, windows);
    }

    /** The same schedule, its nodes found as {@code t} says. */
    public FaultSchedule withTargets(Aim.Targets t) {
        return new FaultSchedule(nemesis, t, faults);
    }

    /** The names of its faults, each once, in order. */
    public Set<String> faultNames() {
        Set<String> s = new LinkedHashSet<>();
        faults.forEach(w -> s.add(w.fault()));
        return s;
    }

    /** The time of its last start or stop (0 when empty). */
    public long lastMillis() {
        return faults.stream().mapToLong(w -> Math.max(w.startMillis(), w.endMillis())).max().orElse(0);
    }

    /**
     * The operations, at their times, as a generator for the {@link NemesisDriver}: each start and stop carries its
     * aim. The seed is not used. A fault the final heal ended is stopped by the final heal again.
     */
    public Gen<FaultOp> gen() {
        // at one time, a stop of a fault that was in force goes first: it may free the family of the start beside
        // it; a fault held for no time at all starts before it stops
        record Due(long nanos, int rank, FaultOp op) {
        }
        List<Due> due = new ArrayList<>();
        for (Window w : faults) {
            due.add(new Due(TimeUnit.MILLISECONDS.toNanos(w.startMillis()), 1, new FaultOp(FaultOp.Kind.START,
                    w.fault(), w.start(), targets)));
            if (w.endMillis() != AT_FINAL_HEAL) {
                due.add(new Due(TimeUnit.MILLISECONDS.toNanos(w.endMillis()), w.endMillis() > w.startMillis() ? 0 : 2,
                        new FaultOp(FaultOp.Kind.STOP, w.fault(), w.stop(), targets)));
            }
        }
        // stable: starts at one time keep their start order
        due.sort(Comparator.comparingLong(Due::nanos).thenComparingInt(Due::rank));
        List<Due> events = List.copyOf(due);
        return seed -> new Cursor<>() {
            int next;

            @Override
            public Next<FaultOp> next(long now) {
                if (next >= events.size()) {
                    return new Next.Done<>();
                }
                Due d = events.get(next);
                if (now < d.nanos()) {
                    return new Next.Pending<>(d.nanos());
                }
                next++;
                return new Next.Emit<>(d.op());
            }
        };
    }

    /**
     * The schedule a driver executed: each start paired with the stop of the same fault that followed it (or the
     * final heal), at the times they began, with the choices both made and what its triggers did in between. Faults
     * of different families may overlap ({@code --compose}); the windows are in start order.
     *
     * @param nemesis the run's nemesis
     * @param actions the driver's actions, in order ({@link NemesisDriver#actions()})
     */
    public static FaultSchedule executed(String nemesis, List<NemesisDriver.Action> actions) {
        record Open(int order, NemesisDriver.Action start, List<String> fired) {
        }
        SortedMap<Integer, Window> windows = new TreeMap<>();
        Map<String, Open> open = new LinkedHashMap<>();
        int starts = 0;
        for (NemesisDriver.Action a : actions) {
            switch (a.step()) {
                case "start" -> {
                    Open before = open.remove(a.fault());
                    if (before != null) { // a start without its stop: it held until this one
                        windows.put(before.order(), window(before.start(), null, a.beganMillis(), before.fired()));
                    }
                    open.put(a.fault(), new Open(starts++, a, new ArrayList<>()));
                }
                case "trigger" -> {
                    Open o = open.get(a.fault());
                    if (o != null && a.did() != null) {
                        o.fired().add(a.did().description());
                    }
                }
                case "stop" -> {
                    Open o = open.remove(a.fault());
                    if (o != null) {
                        windows.put(o.order(), window(o.start(), a, a.beganMillis(), o.fired()));
                    }
                }
                default -> { // the final heal
                    open.values().forEach(o -> windows.put(o.order(), window(o.start(), null, AT_FINAL_HEAL,
                            o.fired())));
                    open.clear();
                }
            }
        }
        open.values().forEach(o -> windows.put(o.order(), window(o.start(), null, AT_FINAL_HEAL, o.fired())));
        return new FaultSchedule(nemesis, Aim.Targets.ROLE, new ArrayList<>(windows.values()));
    }

    private static Window window(NemesisDriver.Action start, NemesisDriver.Action stop, long end, List<String> fired) {
        FaultRecord did = start.did();
        Aim aim = did == null ? null : did.aim();
        List<String> nodes = did == null ? List.of() : did.nodes();
        SortedMap<String, String> roles = new TreeMap<>();
        if (aim != null) {
            for (Map.Entry<String, String> e : aim.roles().entrySet()) {
                if (nodes.contains(e.getKey())) {
                    roles.put(e.getKey(), e.getValue());
                }
            }
        }
        Aim stopAim = stop == null || stop.did() == null ? null : stop.did().aim();
        return new Window(start.fault(), start.beganMillis(), end, did == null ? null : did.description(), nodes,
                roles, aim, stopAim, fired, start.error(), stop == null ? 0 : stop.atMillis() - stop.beganMillis());
    }
}
