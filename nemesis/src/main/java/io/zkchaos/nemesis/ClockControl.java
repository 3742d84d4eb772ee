package io.zkchaos.nemesis;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The nodes' wall clocks, movable: what a {@link NodeControl} implements when its system can move a server's clock
 * (the local and ssh backends, libfaketime preloaded into the servers). A system that cannot does not implement it,
 * and the clock faults ({@link Fault.Family#CLOCK}) say so as "could not act".
 */
public interface ClockControl {

    /**
     * Sets {@code node}'s wall clock to the real time plus {@code offset} ({@link Duration#ZERO} resets it): what
     * {@code settimeofday} or an operator's {@code date -s} does to a machine. Only the wall clock moves
     * ({@code CLOCK_REALTIME}: a JVM's {@code System.currentTimeMillis}); the monotonic clock
     * ({@code CLOCK_MONOTONIC}: {@code System.nanoTime}) runs on untouched, as on a real machine. The offset holds
     * across restarts of the node (it belongs to the machine, not the process), and has taken effect when this
     * returns.
     *
     * @throws UnsupportedOperationException when this system cannot move the node's clock now (started without)
     */
    void setClockOffset(String node, Duration offset);

    /**
     * Sets several nodes' wall clocks at once, each as {@link #setClockOffset} would; every offset has taken effect
     * when this returns. The default sets them one by one; a backend whose changes take a while to be seen (the local
     * backend's servers read a file within about 2 s) makes every change first and waits once, so that a fault that
     * moves every clock holds as long as one that moves one.
     *
     * @throws UnsupportedOperationException when this system cannot move a node's clock now
     */
    default void setClockOffsets(Map<String, Duration> offsets) {
        offsets.forEach(this::setClockOffset);
    }

    /** Each node whose clock is moved now, with its offset; empty when every clock is true. */
    Map<String, Duration> clockOffsets();

    /**
     * {@code node}'s wall clock read from the server itself (not from what the harness asked it to be), e.g. the time
     * it stamps on a request it logs. Empty when this system cannot read it (the default) or the server does not
     * answer (down, paused): the clock fault is then not measured.
     */
    default Optional<ClockReading> readClock(String node) {
        return Optional.empty();
    }
}
