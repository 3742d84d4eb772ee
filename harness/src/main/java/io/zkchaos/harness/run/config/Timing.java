package io.zkchaos.harness.run.config;

import java.time.Duration;

/**
 * How long things last.
 *
 * @param timeLimit how long clients and nemesis run (the main phase)
 * @param recover   after the final heal, how long clients keep working before the final reads (what happens
 *                  after the heal, such as a new leader, is observed in that time)
 * @param recoveryBound after the final heal, how soon the ensemble must acknowledge a write again and every
 *                  server serve (the {@code recovery} checker): 60 s by default, which a correct release meets
 *                  on a loaded 2-core machine (a restarted JVM, an election, a sync)
 */
public record Timing(Duration timeLimit, Duration recover, Duration recoveryBound) {
    public Timing {
        positive(timeLimit, "time-limit");
        if (recover == null || recover.isNegative()) {
            throw new IllegalArgumentException("recover must be zero or positive, got " + recover);
        }
        positive(recoveryBound, "recovery-bound");
    }

    /** The default recovery bound. */
    public Timing(Duration timeLimit, Duration recover) {
        this(timeLimit, recover, DEFAULT_RECOVERY_BOUND);
    }

    public static final Duration DEFAULT_RECOVERY_BOUND = Duration.ofSeconds(60);

    public static Timing defaults() {
        return new Timing(Duration.ofSeconds(60), Duration.ofSeconds(10), DEFAULT_RECOVERY_BOUND);
    }

    /** @throws IllegalArgumentException naming the field (as the CLI spells it) unless {@code d} is positive */
    static void positive(Duration d, String field) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(field + " must be a positive duration, got " + d);
        }
    }
}
