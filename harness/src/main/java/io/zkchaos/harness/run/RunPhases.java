package io.zkchaos.harness.run;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Where a run's wall time went, phase by phase, in the order the phases ran: {@code start} (reap leftovers, start
 * the cluster until a quorum serves), {@code setup} (the workload's znodes), {@code clients} (the main phase and the
 * recovery after the final heal, the clients working throughout), {@code heal} (stopping the nemesis, healing
 * everything once more), {@code quorum} (until a quorum serves again), {@code final} (the final reads),
 * {@code teardown} (the workload's cleanup), {@code stop} (the cluster, the observer and the recorder closed),
 * {@code check} (reading the history and checking it) and {@code report} (the HTML report). A run that failed has
 * the phases it got through.
 *
 * @param millis each phase's wall time in milliseconds, in order
 */
public record RunPhases(Map<String, Long> millis) {

    /** The phases in the order a run goes through them. */
    public static final java.util.List<String> ORDER = java.util.List.of("start", "setup", "clients", "heal",
            "quorum", "final", "teardown", "stop", "check", "report");

    public RunPhases {
        millis = Collections.unmodifiableMap(new LinkedHashMap<>(millis));
    }

    /** One phase's wall time, 0 when the run did not get there. */
    public long of(String phase) {
        return millis.getOrDefault(phase, 0L);
    }

    /** {@code start 3.1 s, setup 0.1 s, ...}, for progress lines and logs. */
    @Override
    public String toString() {
        return millis.entrySet().stream()
                .map(e -> e.getKey() + " " + String.format(Locale.ROOT, "%.1f s", e.getValue() / 1000.0))
                .collect(Collectors.joining(", "));
    }

    /** Takes laps: each {@link #lap(String)} ends the named phase, which began where the previous one ended. */
    static final class Clock {
        private final Map<String, Long> laps = new LinkedHashMap<>();
        private long last = System.nanoTime();

        /** Ends {@code phase} now; a phase lapped twice adds up. */
        synchronized void lap(String phase) {
            long now = System.nanoTime();
            laps.merge(phase, (now - last) / 1_000_000, Long::sum);
            last = now;
        }

        synchronized RunPhases phases() {
            return new RunPhases(laps);
        }
    }
}
