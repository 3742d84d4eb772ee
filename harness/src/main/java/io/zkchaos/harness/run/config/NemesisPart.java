package io.zkchaos.harness.run.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.zkchaos.nemesis.Fault;
import io.zkchaos.nemesis.NemesisDescriptor;
import io.zkchaos.nemesis.Nemeses;
import io.zkchaos.nemesis.schedule.FaultSchedule;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * Which faults, and their cycle.
 *
 * @param name     the nemesis ({@link Nemeses})
 * @param faultFor how long each fault is held
 * @param healFor  how long the cluster is left healed between faults (and before the first)
 * @param compose  the most faults in force at once, each of another family ({@code --compose}; 1: one at a
 *                 time, the cycle)
 * @param schedule the faults to execute, at their times and with their choices ({@code --schedule}: an earlier
 *                 run's {@code schedule.json}, shrunk or edited), instead of the seeded cycle; null for the cycle
 *                 (and then not written: a configuration keeps the shape config.json has)
 * @param without  the fault families left out of the nemesis ({@code --without clock,disk}), in the enum's order;
 *                 empty for none. The draw reads only this and the rest of the configuration, never what the
 *                 machine has: a run whose draw needs what the machine lacks is refused
 *                 ({@link RunConfig#requireMachine}), never drawn again without it
 */
public record NemesisPart(String name, Duration faultFor, Duration healFor, int compose,
                          @JsonInclude(JsonInclude.Include.NON_NULL) FaultSchedule schedule,
                          @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Fault.Family> without) {
    public NemesisPart {
        Nemeses.require(name);
        without = without == null ? List.of() : List.copyOf(new java.util.TreeSet<>(without));
        if (!without.isEmpty()) {
            Nemeses.require(name).without(Set.copyOf(without)); // a family it lacks, or no fault left: refused
        }
        Timing.positive(faultFor, "fault-for");
        Timing.positive(healFor, "heal-for");
        if (compose < 1) {
            throw new IllegalArgumentException("compose must be at least 1 (faults in force at once), got "
                    + compose);
        }
    }

    /** The seeded cycle, one fault at a time. */
    public NemesisPart(String name, Duration faultFor, Duration healFor) {
        this(name, faultFor, healFor, 1, null, List.of());
    }

    /** Every family of the nemesis. */
    public NemesisPart(String name, Duration faultFor, Duration healFor, int compose, FaultSchedule schedule) {
        this(name, faultFor, healFor, compose, schedule, List.of());
    }

    public static NemesisPart defaults() {
        return new NemesisPart(Nemeses.NONE, Duration.ofSeconds(10), Duration.ofSeconds(10));
    }

    /** The nemesis's descriptor, without the families left out. */
    public NemesisDescriptor descriptor() {
        return Nemeses.require(name).without(Set.copyOf(without));
    }

    /** The families left out, by name ({@code clock}), as config.json and the CLI spell them. */
    public List<String> withoutNames() {
        return without.stream().map(Fault.Family::cliName).toList();
    }
}
