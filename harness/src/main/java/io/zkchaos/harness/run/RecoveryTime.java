package io.zkchaos.harness.run;

import io.zkchaos.nemesis.NemesisDriver;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives a run's clients their recovery time ({@code --recover}) from the moment the ensemble serves again after the
 * final heal, not from the end of the main phase. The heal only starts what was down: servers restarted then take
 * seconds to start and elect (12 s for a killed majority on a loaded machine), and a recovery time counted from the
 * heal's start left the clients nothing of it, so the run said nothing about recovery ({@code unknown}). While the
 * heal goes on and until a quorum serves (at most the recovery bound, past which the {@code recovery} checker has
 * its finding), the clients' end keeps moving later; then it is set the recovery time ahead. Thread-safe.
 */
final class RecoveryTime implements NemesisDriver.FinalHealListener, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RecoveryTime.class);

    /** How often the end is moved, and whether a quorum serves asked, while waiting. */
    private static final Duration TICK = Duration.ofMillis(200);
    /** While waiting, the end is at least this far ahead, whatever the recovery time. */
    private static final Duration AHEAD_WHILE_WAITING = Duration.ofSeconds(1);

    private final Duration recover;
    private final Duration bound;
    private final BooleanSupplier serves;
    private final List<Consumer<Duration>> ends;
    private final ScheduledExecutorService ticker = Executors.newScheduledThreadPool(2, r -> {
        Thread t = new Thread(r, "recovery-time");
        t.setDaemon(true);
        return t;
    });
    private volatile long beganNanos = -1;
    private volatile long healedNanos = -1;
    private volatile long settledNanos = -1;
    private volatile boolean served;

    /**
     * @param recover the run's recovery time
     * @param bound   the longest wait for a quorum after the heal (the run's recovery bound)
     * @param serves  whether a quorum serves now (false when it cannot tell)
     * @param ends    what moves each client end later ({@code ClientDeadline::extendBy}, the client processes')
     */
    RecoveryTime(Duration recover, Duration bound, BooleanSupplier serves, List<Consumer<Duration>> ends) {
        this.recover = recover;
        this.bound = bound;
        this.serves = serves;
        this.ends = List.copyOf(ends);
    }

    @Override
    public void began() {
        beganNanos = System.nanoTime();
        Duration ahead = recover.compareTo(AHEAD_WHILE_WAITING) > 0 ? recover : AHEAD_WHILE_WAITING;
        ticker.scheduleAtFixedRate(() -> {
            if (settledNanos < 0) {
                extend(ahead);
            }
        }, 0, TICK.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void ended() {
        healedNanos = System.nanoTime();
        if (beganNanos < 0) {
            beganNanos = healedNanos;
        }
        ticker.scheduleWithFixedDelay(this::poll, 0, TICK.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void poll() {
        if (settledNanos >= 0) {
            return;
        }
        boolean ok;
        try {
            ok = serves.getAsBoolean();
        } catch (RuntimeException e) {
            LOG.debug("cannot tell whether a quorum serves: {}", e.toString());
            ok = false;
        }
        if (ok || System.nanoTime() - healedNanos > bound.toNanos()) {
            served = ok;
            settledNanos = System.nanoTime();
            extend(recover);
            ticker.shutdown();
        }
    }

    private void extend(Duration left) {
        for (Consumer<Duration> end : ends) {
            end.accept(left);
        }
    }

    /** What happened, for the run's output: how long the heal took and when the recovery time began; empty before. */
    Optional<String> describe() {
        if (settledNanos < 0 || healedNanos < 0) {
            return Optional.empty();
        }
        long heal = TimeUnit.NANOSECONDS.toMillis(healedNanos - beganNanos);
        long after = TimeUnit.NANOSECONDS.toMillis(settledNanos - healedNanos);
        return Optional.of("the final heal took " + heal + " ms; " + (served
                ? "a quorum served " + after + " ms after it; the clients' recovery time counted from then"
                : "no quorum served within " + bound.toSeconds() + " s of it; the clients' recovery time counted "
                        + "from then"));
    }

    /** Whether a quorum served before the bound; empty while waiting. */
    Optional<Boolean> served() {
        return settledNanos < 0 ? Optional.empty() : Optional.of(served);
    }

    /** Stops moving the end (a run that ends before the heal's wait did). */
    @Override
    public void close() {
        ticker.shutdownNow();
    }
}
