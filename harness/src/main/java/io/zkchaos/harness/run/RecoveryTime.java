package io.zkchaos.harness.run;

import io.zkchaos.nemesis.NemesisDriver;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Gives a run's clients their recovery time ({@code --recover}) from the end of the final heal, not from the end of
 * the main phase: while the heal goes on (a majority restarting, a slow container engine) their end keeps moving
 * later, and when it is done they get the whole recovery time to see the ensemble serve again. Without it a heal
 * longer than the recovery time left the clients no time after it, and the run said nothing about recovery.
 */
final class RecoveryTime implements NemesisDriver.FinalHealListener {

    /** How often the end is moved while the heal goes on. */
    private static final Duration TICK = Duration.ofMillis(200);
    /** While the heal goes on, the end is at least this far ahead, whatever the recovery time. */
    private static final Duration AHEAD_WHILE_HEALING = Duration.ofSeconds(1);

    /** A heal still going on after this no longer keeps the clients working (a hung engine must not hang them). */
    private static final Duration LONGEST_HEAL = Duration.ofMinutes(10);

    private final Duration recover;
    private final List<Consumer<Duration>> ends;
    private ScheduledExecutorService ticker;
    private volatile long beganNanos = -1;
    private volatile long endedNanos = -1;

    /**
     * @param recover the run's recovery time
     * @param ends    what moves each client end later ({@code ClientDeadline::extendBy}, the client processes')
     */
    RecoveryTime(Duration recover, List<Consumer<Duration>> ends) {
        this.recover = recover;
        this.ends = List.copyOf(ends);
    }

    @Override
    public synchronized void began() {
        beganNanos = System.nanoTime();
        Duration ahead = recover.compareTo(AHEAD_WHILE_HEALING) > 0 ? recover : AHEAD_WHILE_HEALING;
        ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "recovery-time");
            t.setDaemon(true);
            return t;
        });
        long began = beganNanos;
        ticker.scheduleAtFixedRate(() -> {
            if (System.nanoTime() - began < LONGEST_HEAL.toNanos()) {
                extend(ahead);
            }
        }, 0, TICK.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void ended() {
        if (ticker != null) {
            ticker.shutdownNow();
            try {
                ticker.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        endedNanos = System.nanoTime();
        extend(recover);
    }

    private void extend(Duration left) {
        for (Consumer<Duration> end : ends) {
            end.accept(left);
        }
    }

    /** How long the final heal took; empty before it has ended. */
    Optional<Duration> healTook() {
        return endedNanos < 0 || beganNanos < 0 ? Optional.empty()
                : Optional.of(Duration.ofNanos(endedNanos - beganNanos));
    }
}
