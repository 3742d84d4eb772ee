package io.zkchaos.nemesis;

import io.zkchaos.checkers.evidence.Minimum;
import io.zkchaos.checkers.evidence.Requirement;
import io.zkchaos.checkers.gen.Gen;
import io.zkchaos.nemesis.schedule.FaultSchedule;
import io.zkchaos.nemesis.schedule.Schedules;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A nemesis by the name the CLI takes: the faults its seeded cycle chooses from ({@code none}: no fault at all).
 *
 * @param name        e.g. {@code kill-leader}, {@code mixed}, {@code none}
 * @param description one line for people
 * @param faults      the faults its cycle chooses from, uniformly from the seed
 */
public record NemesisDescriptor(String name, String description, List<Fault> faults) {

    public NemesisDescriptor {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        faults = List.copyOf(faults);
    }

    /** Whether this nemesis does nothing. */
    public boolean isNone() {
        return faults.isEmpty();
    }

    /** Whether every fault of this nemesis can act on {@code nodes} nodes. */
    public boolean supports(int nodes) {
        return faults.stream().allMatch(f -> f.supports(nodes));
    }

    /** Whether some fault of this nemesis acts on the lazy file system (power failures, failing disks). */
    public boolean needsLazyFs() {
        return faults.stream().anyMatch(f -> f.is(Fault.Trait.NEEDS_LAZYFS));
    }

    /**
     * Whether every fault of this nemesis acts on the lazy file system: named on its own, such a nemesis implies
     * {@code --lazyfs}; one that mixes them with others ({@code mixed}) draws them only where the run has it
     * ({@link #forStorage}).
     */
    public boolean requiresLazyFs() {
        return !faults.isEmpty() && faults.stream().allMatch(f -> f.is(Fault.Trait.NEEDS_LAZYFS));
    }

    /**
     * This nemesis as it runs with ({@code lazyFs}) or without the lazy file system under the servers: without it,
     * the faults that act on it are left out ({@code mixed} mixes the others); a nemesis made only of them is kept
     * whole (it implies the lazy file system: {@link #requiresLazyFs}).
     */
    public NemesisDescriptor forStorage(boolean lazyFs) {
        if (lazyFs || !needsLazyFs() || requiresLazyFs()) {
            return this;
        }
        return new NemesisDescriptor(name, description, faults.stream()
                .filter(f -> !f.is(Fault.Trait.NEEDS_LAZYFS)).toList());
    }

    /**
     * This nemesis without the faults of {@code families} ({@code --without}): what {@code mixed} draws from when a
     * run leaves families out, a choice recorded with the run, so that the seed alone fixes the draw.
     *
     * @throws IllegalArgumentException when a family is not this nemesis's, or when no fault is left
     */
    public NemesisDescriptor without(Set<Fault.Family> families) {
        if (families.isEmpty()) {
            return this;
        }
        Set<Fault.Family> has = families();
        for (Fault.Family f : new java.util.TreeSet<>(families)) {
            if (!has.contains(f)) {
                throw new IllegalArgumentException("without: nemesis '" + name + "' has no " + f.cliName()
                        + " faults to leave out (its families: " + String.join(", ", has.stream()
                        .map(Fault.Family::cliName).toList()) + ")");
            }
        }
        List<Fault> kept = faults.stream().filter(f -> !families.contains(f.family())).toList();
        if (kept.isEmpty()) {
            throw new IllegalArgumentException("without: leaving out " + String.join(", ", families.stream()
                    .sorted().map(Fault.Family::cliName).toList()) + " leaves nemesis '" + name + "' no fault "
                    + "(for a run without faults: --nemesis none)");
        }
        return new NemesisDescriptor(name, description, kept);
    }

    /** Whether some fault of this nemesis moves the servers' clocks: they must start so that it can. */
    public boolean movesClocks() {
        return faults.stream().anyMatch(f -> f.is(Fault.Trait.MOVES_CLOCKS));
    }

    /** Whether some fault of this nemesis moves the client processes' clocks: they must start so that it can. */
    public boolean movesClientClocks() {
        return faults.stream().anyMatch(f -> f.is(Fault.Trait.MOVES_CLIENT_CLOCKS));
    }

    /**
     * What a run under this nemesis must have exercised for its verdict to be evidence
     * ({@link io.zkchaos.checkers.evidence.Minimum}): nothing for {@code none}; otherwise at least one fault applied;
     * for faults at a protocol moment, a trigger that fired; and, when the workload names what its clients must get
     * acknowledged under faults ({@code underFault}: empty for any operation), one such acknowledgement while a fault
     * that leaves a serving quorum was in force.
     *
     * @param underFault the workload's functions to be acknowledged under faults, or empty for no such requirement
     */
    public Minimum minimum(Optional<Set<String>> underFault) {
        if (faults.isEmpty()) {
            return Minimum.of();
        }
        List<Requirement> rs = new ArrayList<>();
        rs.add(new Requirement.FaultApplied(FAULT_APPLIED));
        Set<String> atMoments = names(f -> f.is(Fault.Trait.AT_PROTOCOL_MOMENT));
        if (!atMoments.isEmpty()) {
            rs.add(new Requirement.TriggerFired(TRIGGER_FIRED, atMoments));
        }
        Set<String> serving = names(f -> !f.is(Fault.Trait.NO_SERVICE));
        if (underFault.isPresent() && !serving.isEmpty()) {
            rs.add(new Requirement.AcknowledgedUnderFault(ACKED_UNDER_FAULT, underFault.get(), serving));
        }
        return new Minimum(rs);
    }

    /** Requirement ids of {@link #minimum}. */
    public static final String FAULT_APPLIED = "fault-applied";
    public static final String TRIGGER_FIRED = "trigger-fired";
    public static final String ACKED_UNDER_FAULT = "acked-under-fault";

    private Set<String> names(java.util.function.Predicate<Fault> p) {
        Set<String> s = new LinkedHashSet<>();
        faults.stream().filter(p).forEach(f -> s.add(f.name()));
        return s;
    }

    /** Whether every fault of this nemesis acts on client processes (it cannot run without them). */
    public boolean needsClientProcesses() {
        return !faults.isEmpty() && faults.stream().allMatch(Fault::needsClientProcesses);
    }

    /**
     * This nemesis as it runs when clients are processes of their own ({@code processes}) or threads of the harness:
     * with threads, the client faults are left out ({@code mixed} mixes the others).
     *
     * @throws IllegalArgumentException when every fault needs client processes and clients are threads
     */
    public NemesisDescriptor forClients(boolean processes) {
        if (processes || faults.stream().noneMatch(Fault::needsClientProcesses)) {
            return this;
        }
        if (needsClientProcesses()) {
            throw new IllegalArgumentException("nemesis '" + name + "' acts on client processes, but the clients "
                    + "run as threads of the harness: run them as processes (--clients process)");
        }
        return new NemesisDescriptor(name, description, faults.stream().filter(f -> !f.needsClientProcesses())
                .toList());
    }

    /** How long each fault is held: {@code faultFor}, or longer where a fault needs it ({@link Fault#holdAtLeast}). */
    public Duration hold(NemesisTiming timing) {
        Duration hold = timing.faultFor();
        for (Fault f : faults) {
            Duration needed = f.holdAtLeast(timing.sessionTimeout());
            hold = needed.compareTo(hold) > 0 ? needed : hold;
        }
        return hold;
    }

    /**
     * The fault schedule: an endless cycle (heal, fault, heal, ...) over the faults, pure in the seed; empty for
     * {@code none}. Each fault is held {@link #hold}.
     */
    public Optional<Gen<FaultOp>> schedule(NemesisTiming timing) {
        return schedule(timing, 1);
    }

    /**
     * The fault schedule with up to {@code compose} faults in force at once: 1 is the cycle of
     * {@link #schedule(NemesisTiming)}; more overlaps seeded windows of faults of different families
     * ({@link Schedules#compose}), each held at least {@link #hold}. Empty for {@code none}.
     *
     * @throws IllegalArgumentException as {@link #requireCompose} says
     */
    public Optional<Gen<FaultOp>> schedule(NemesisTiming timing, int compose) {
        requireCompose(compose);
        if (faults.isEmpty()) {
            return Optional.empty();
        }
        if (compose == 1) {
            return Optional.of(Schedules.cycle(hold(timing), timing.healFor(), faults.stream().map(Fault::name)
                    .toList()));
        }
        Map<String, List<String>> byFamily = new LinkedHashMap<>();
        faults.forEach(f -> byFamily.computeIfAbsent(f.family().cliName(), x -> new ArrayList<>()).add(f.name()));
        return Optional.of(Schedules.compose(hold(timing), timing.healFor(), byFamily, compose));
    }

    /** The families of its faults ({@link Fault.Family}), in the enum's order. */
    public Set<Fault.Family> families() {
        Set<Fault.Family> s = new java.util.TreeSet<>();
        faults.forEach(f -> s.add(f.family()));
        return s;
    }

    /**
     * Checks a {@code --compose} count: at least 1 (one fault at a time), and at most the number of families of this
     * nemesis's faults (two faults of one family never hold at once: a stop undoes its whole family's harm).
     *
     * @throws IllegalArgumentException naming the count and the families
     */
    public void requireCompose(int compose) {
        if (compose < 1) {
            throw new IllegalArgumentException("--compose must be at least 1 (faults in force at once), got "
                    + compose);
        }
        if (compose > 1 && compose > families().size()) {
            throw new IllegalArgumentException("--compose " + compose + " asks for up to " + compose + " faults at "
                    + "once, each of another family, but nemesis '" + name + "' has faults of " + families().size()
                    + (families().size() == 1 ? " family" : " families") + " (" + String.join(", ", families()
                    .stream().map(Fault.Family::cliName).toList()) + ") on this run");
        }
    }

    /**
     * Checks that no two faults of one family hold at once in {@code schedule} (a stop undoes its whole family's
     * harm, so the first one's stop would end the second); faults that are not this nemesis's are not looked at.
     *
     * @throws IllegalArgumentException naming the two faults and their times
     */
    public void requireFamiliesApart(FaultSchedule schedule) {
        Map<Fault.Family, FaultSchedule.Window> last = new java.util.EnumMap<>(Fault.Family.class);
        for (FaultSchedule.Window w : schedule.faults()) {
            Optional<Fault> fault = faults.stream().filter(f -> f.name().equals(w.fault())).findFirst();
            if (fault.isEmpty()) {
                continue;
            }
            FaultSchedule.Window before = last.put(fault.get().family(), w);
            if (before != null && (before.endMillis() == FaultSchedule.AT_FINAL_HEAL
                    || w.startMillis() < before.endMillis())) {
                throw new IllegalArgumentException("schedule: " + w.fault() + " at " + w.startMillis() + " ms starts "
                        + "while " + before.fault() + " (from " + before.startMillis() + " ms) holds; both are "
                        + fault.get().family().cliName() + " faults, and a stop undoes its whole family's harm: "
                        + "faults of one family never overlap");
            }
        }
    }

    /** A nemesis that acts with these faults on {@code target}. */
    public Nemesis on(NemesisTarget target) {
        return new FaultNemesis(target, faults);
    }
}
