package io.zkchaos.fle.peer;

import io.zkchaos.fle.Bug;
import io.zkchaos.fle.BugPaths;
import io.zkchaos.fle.sched.Scheduler;
import io.zkchaos.fle.sched.Scheduler.Cancellable;
import io.zkchaos.fle.storage.Storage;
import io.zkchaos.fle.zab.Entry;
import java.util.ArrayList;
import java.util.List;

/**
 * How proposals reach the storage. Correctly: an appended entry joins a batch that is written and fsynced once the
 * scheduler has run what was already queued (group commit: proposals that arrive together share one fsync), and only
 * then is its callback — the ACK — run.
 *
 * <p>With the {@code ack-before-durable} bug the callback runs at once and the entry is held in process memory for
 * {@link io.zkchaos.fle.Timing#ackBeforeDurableDelayMs()} before it is written at all, so a {@code SIGKILL} in that
 * window loses a proposal the server has ACKed (the kernel's page cache would have kept it had it been written).
 * Each proposal ACKed that way (an append whose callback is not {@link #NO_ACK}) is counted as the bug's code path.
 */
final class DurableLog {

    /** The callback of an append that nothing acknowledges (a follower's sync: NEWLEADER's ACK waits for it). */
    static final Runnable NO_ACK = () -> { };

    private final Storage storage;
    private final Scheduler scheduler;
    private final BugPaths bugPaths;
    private final boolean ackBeforeDurable;
    private final long holdMs;

    private final List<Entry> batch = new ArrayList<>();
    private final List<Runnable> callbacks = new ArrayList<>();
    private boolean flushQueued;
    private final List<Entry> held = new ArrayList<>();
    private Cancellable heldTimer = Cancellable.NONE;

    DurableLog(Storage storage, Scheduler scheduler, BugPaths bugPaths, long holdMs) {
        this.storage = storage;
        this.scheduler = scheduler;
        this.bugPaths = bugPaths;
        this.ackBeforeDurable = bugPaths.on(Bug.ACK_BEFORE_DURABLE);
        this.holdMs = holdMs;
    }

    /** Logs {@code e} and runs {@code onDurable} once it is on disk (or at once, with the bug). */
    void append(Entry e, Runnable onDurable) {
        if (ackBeforeDurable) {
            held.add(e);
            if (held.size() == 1) {
                heldTimer = scheduler.schedule(holdMs, this::writeHeld);
            }
            if (onDurable != NO_ACK) {
                bugPaths.ran(Bug.ACK_BEFORE_DURABLE); // acknowledged while only in memory
            }
            onDurable.run();
            return;
        }
        batch.add(e);
        callbacks.add(onDurable);
        if (!flushQueued) {
            flushQueued = true;
            scheduler.execute(this::flushBatch);
        }
    }

    /** Entries appended but not yet on disk (held by the bug, or waiting for their batch). */
    int pending() {
        return batch.size() + held.size();
    }

    private void flushBatch() {
        flushQueued = false;
        if (batch.isEmpty()) {
            return;
        }
        storage.append(new ArrayList<>(batch));
        batch.clear();
        List<Runnable> done = new ArrayList<>(callbacks);
        callbacks.clear();
        done.forEach(Runnable::run);
    }

    private void writeHeld() {
        heldTimer.cancel();
        heldTimer = Cancellable.NONE;
        if (!held.isEmpty()) {
            storage.append(new ArrayList<>(held));
            held.clear();
        }
    }

    /** Makes everything appended so far durable now (running the batch's callbacks). */
    void sync() {
        writeHeld();
        flushBatch();
    }

    void truncateAfter(long zxid) {
        sync();
        storage.truncateAfter(zxid);
    }

    void replace(List<Entry> entries) {
        sync();
        storage.replace(entries);
    }
}
