package io.zkchaos.nemesis;

import io.zkchaos.checkers.gen.Gen;
import io.zkchaos.nemesis.schedule.Schedules;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

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

    /**
     * The fault schedule: an endless cycle (heal, fault, heal, ...) over the faults, pure in the seed; empty for
     * {@code none}. Each fault is held {@code faultFor}, or longer where a fault needs it ({@link Fault#holdAtLeast}).
     */
    public Optional<Gen<FaultOp>> schedule(NemesisTiming timing) {
        if (faults.isEmpty()) {
            return Optional.empty();
        }
        Duration hold = timing.faultFor();
        for (Fault f : faults) {
            Duration needed = f.holdAtLeast(timing.sessionTimeout());
            hold = needed.compareTo(hold) > 0 ? needed : hold;
        }
        return Optional.of(Schedules.cycle(hold, timing.healFor(), faults.stream().map(Fault::name).toList()));
    }

    /** A nemesis that acts with these faults on {@code target}. */
    public Nemesis on(NemesisTarget target) {
        return new FaultNemesis(target, faults);
    }
}
