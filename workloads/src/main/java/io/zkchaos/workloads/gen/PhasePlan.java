package io.zkchaos.workloads.gen;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How long the timed phases last. The heal is an action (it takes as long as it takes), so the plan yields the
 * phase changes in order with the times they are due: MAIN at 0, HEAL at {@code main}, RECOVER as soon as the heal
 * is done, FINAL_READS {@code recover} after that.
 *
 * @param main    how long clients and nemesis run
 * @param recover how long the healed cluster is left alone before the final reads
 */
public record PhasePlan(Duration main, Duration recover) {

    public PhasePlan {
        Gens.positive(Objects.requireNonNull(main, "main"), "main phase");
        Objects.requireNonNull(recover, "recover");
        if (recover.isNegative()) {
            throw new IllegalArgumentException("recover must not be negative, got " + recover);
        }
    }

    /** The phase changes as a generator (its clock starts at the first call; the caller asks again after HEAL). */
    public Gen<Phase> schedule() {
        Gen<Phase> start = Gens.each(List.of(Phase.MAIN));
        Gen<Phase> heal = Gens.<Phase>sleep(main).then(Gens.each(List.of(Phase.HEAL, Phase.RECOVER)));
        Gen<Phase> fin = recover.isZero() ? Gens.each(List.of(Phase.FINAL_READS))
                : Gens.<Phase>sleep(recover).then(Gens.each(List.of(Phase.FINAL_READS)));
        return Gens.concat(List.of(start, heal, fin));
    }
}
