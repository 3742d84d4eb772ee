package io.zkchaos.nemesis;

import io.zkchaos.checkers.gen.Gens;
import java.time.Duration;

/**
 * The timing of a nemesis cycle.
 *
 * @param faultFor       how long each fault is held
 * @param healFor        how long the system is left healed before the first fault and between faults
 * @param sessionTimeout the clients' session timeout: faults that must outlast it are held at least as long as
 *                       they need ({@link Fault#holdAtLeast})
 */
public record NemesisTiming(Duration faultFor, Duration healFor, Duration sessionTimeout) {

    public NemesisTiming {
        Gens.positive(faultFor, "fault-for");
        Gens.positive(healFor, "heal-for");
        Gens.positive(sessionTimeout, "session-timeout");
    }
}
