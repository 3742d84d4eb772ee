package io.zkchaos.nemesis;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The processes of a system under test, as the nemesis sees them: named nodes it can kill, pause, resume and start,
 * and a way to ask who leads. A backend implements it (local JVM processes, containers, the project's own nodes);
 * the nemesis knows nothing else about them.
 *
 * <p>Every action has taken effect when it returns: {@link #kill} is a SIGKILL whose process is gone,
 * {@link #pause} a SIGSTOP (or a container paused). Actions are idempotent where that is meaningful (killing a node
 * that is down does nothing). Implementations are thread-safe.
 */
public interface NodeControl {

    /** Node names ({@code n1 .. nN}), in order. */
    List<String> nodes();

    /** What the harness did to the node last. */
    NodeState state(String node);

    /** The node that leads now, asked of the nodes themselves; empty when none leads. */
    Optional<String> leader();

    /** Starts a node that is down, on its existing data; no-op if it runs. Does not wait for it to serve. */
    void start(String node);

    /** SIGKILLs a node and waits until its process is gone; no-op if it is down. */
    void kill(String node);

    /** SIGSTOPs a running node; no-op if it is paused or down. */
    void pause(String node);

    /** SIGCONTs a paused node; no-op otherwise. */
    void resume(String node);

    /** Kills (if running) and starts a node again on the same data and ports. */
    default void restart(String node) {
        kill(node);
        start(node);
    }

    /**
     * Waits until {@code node} serves clients again as a member of a quorum (a leader, or a follower that has
     * synced with one): what a rolling restart waits for before it takes the next node down.
     *
     * @throws IllegalStateException past {@code bound}, naming the node and what it was doing
     * @throws UnsupportedOperationException when this system cannot tell (the default)
     */
    default void awaitServing(String node, Duration bound) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot tell whether " + node
                + " serves");
    }

    /**
     * SIGKILLs a node (if it runs) and drops every write it made that was not fsynced: what a power failure does to
     * that machine, page cache and all. A SIGKILL alone loses nothing the process wrote (the kernel's page cache
     * survives it); this needs the node's data on a file system that holds writes until fsync.
     *
     * @throws UnsupportedOperationException when this system cannot (the default; a local cluster without its
     *                                       data directories on the lazy file system)
     */
    default void killLosingUnsyncedWrites(String node) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot drop " + node
                + "'s unsynced writes: its data is not on a file system that holds writes until fsync");
    }

    /**
     * SIGKILLs a node (if it runs) and empties its data directory, keeping only what names it in the ensemble
     * (ZooKeeper's {@code myid}): its host re-imaged, as an operator replaces a failed disk. The node stays down;
     * {@link #start} brings it back on the empty directory, to sync the whole data tree from a leader.
     *
     * @throws UnsupportedOperationException when this system cannot (the default)
     */
    default void replaceDisk(String node) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot empty " + node
                + "'s data directory");
    }

    /**
     * As {@link #killLosingUnsyncedWrites}, but the power fails in the middle of writing back: of each file's bytes
     * written and not fsynced, a prefix in file order (at least one byte, never all; its length drawn from
     * {@code seed}) reaches the disk and the rest is lost, so that a file may end in a partly written record.
     *
     * @return what was torn, in words (for the history): {@code 2 file(s) torn, 37 of 120 unsynced bytes kept}
     * @throws UnsupportedOperationException when this system cannot (the default)
     */
    default String killTearingUnsyncedWrites(String node, long seed) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot tear " + node
                + "'s unsynced writes: its data is not on a file system that holds writes until fsync");
    }

    /**
     * Makes {@code node}'s disk (its data directory) fail as {@code fault} says, in addition to any fault it has,
     * until {@link #repairDisk}. The server is not restarted: it meets the fault at its next write or fsync.
     *
     * @throws UnsupportedOperationException when this system cannot (the default; a local cluster without its data
     *                                       directories on the lazy file system)
     */
    default void injectDiskFault(String node, DiskFault fault) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot make " + node
                + "'s disk fail: its data is not on a file system that can fail on command");
    }

    /** Ends every fault of {@code node}'s disk; what the server does about it is its own affair. No-op if none. */
    default void repairDisk(String node) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot repair " + node + "'s disk");
    }

    /** Each node whose disk fails now, with its faults in the order they began; empty when none (the default). */
    default Map<String, List<DiskFault>> diskFaults() {
        return Map.of();
    }

    /**
     * Sets {@code node}'s wall clock to the real time plus {@code offset} ({@link Duration#ZERO} resets it): what
     * {@code settimeofday} or an operator's {@code date -s} does to a machine. Only the wall clock moves
     * ({@code CLOCK_REALTIME}: a JVM's {@code System.currentTimeMillis}); the monotonic clock
     * ({@code CLOCK_MONOTONIC}: {@code System.nanoTime}) runs on untouched, as on a real machine. The offset holds
     * across restarts of the node (it belongs to the machine, not the process), and has taken effect when this
     * returns.
     *
     * @throws UnsupportedOperationException when this system cannot move a node's clock (the default)
     */
    default void setClockOffset(String node, Duration offset) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot move " + node
                + "'s clock");
    }

    /**
     * Sets several nodes' wall clocks at once, each as {@link #setClockOffset} would; every offset has taken effect
     * when this returns. The default sets them one by one; a backend whose changes take a while to be seen (the local
     * backend's servers read a file within about 2 s) makes every change first and waits once, so that a fault that
     * moves every clock holds as long as one that moves one.
     *
     * @throws UnsupportedOperationException when this system cannot move a node's clock (the default)
     */
    default void setClockOffsets(Map<String, Duration> offsets) {
        offsets.forEach(this::setClockOffset);
    }

    /** Each node whose clock is moved now, with its offset; empty when every clock is true (the default). */
    default Map<String, Duration> clockOffsets() {
        return Map.of();
    }

    // ---- what the system felt: measures read from the system itself, for each fault's record ({@link Felt}) ----

    /**
     * The state of {@code node}'s process as the operating system (or container engine) shows it now, not what the
     * harness did last ({@link #state}): {@link NodeState#DOWN} when no process is there, {@link NodeState#PAUSED}
     * when it is stopped (SIGSTOP), {@link NodeState#RUNNING} otherwise. Empty when this system cannot tell (the
     * default): the kill or pause is then not measured.
     */
    default Optional<NodeState> processSeen(String node) {
        return Optional.empty();
    }

    /**
     * What {@code node}'s disk did since its current faults began ({@link #injectDiskFault} on a disk that had none),
     * as the file system under it counted: {@code writes}, {@code fsyncs}, {@code failed_writes},
     * {@code failed_fsyncs}, {@code full_writes}, {@code slowed_fsyncs} (each the change over the window). Read
     * before {@link #repairDisk}. Empty when this system does not count (the default) or the disk has no fault.
     */
    default Optional<Map<String, Long>> diskCountsSinceFault(String node) {
        return Optional.empty();
    }

    /**
     * {@code node}'s wall clock read from the server itself (not from what the harness asked it to be), e.g. the time
     * it stamps on a request it logs. Empty when this system cannot read it (the default) or the server does not
     * answer (down, paused).
     */
    default Optional<ClockReading> readClock(String node) {
        return Optional.empty();
    }

    /** The smallest number of nodes that forms a majority. */
    default int quorumSize() {
        return nodes().size() / 2 + 1;
    }
}
