package io.zkchaos.workloads;

/**
 * A workload whose clients can each run in a process of their own. Its clients are {@code concurrency} slots; a slot
 * runs its logical processes one after another ({@code firstProcess}, {@code firstProcess + concurrency}, ...: a
 * retired process is replaced by the next number, as in Jepsen) until the run's time is up. {@link #run} runs every
 * slot on a thread of this JVM; with client processes each slot is a JVM of its own running {@link #runSlot}
 * ({@link io.zkchaos.workloads.process.ClientMain}), and a slot whose JVM was killed goes on in a new JVM with a later
 * process number.
 */
public interface SlottedWorkload extends Workload {

    /**
     * Runs slot {@code slot}'s processes, the first numbered {@code firstProcess} (congruent to {@code slot} modulo
     * the concurrency), until {@code ctx.duration()} has passed, recording into {@code ctx.recorder()}. Returns once
     * the slot's client stopped and its every invoke is completed.
     *
     * @throws IllegalArgumentException if {@code firstProcess} does not belong to {@code slot}
     */
    void runSlot(RunContext ctx, int slot, int firstProcess) throws InterruptedException;

    /** Runs every slot on a thread of this JVM ({@link #runSlot} from process {@code slot}), until all stopped. */
    @Override
    default void run(RunContext ctx) throws InterruptedException {
        java.util.List<Thread> threads = new java.util.ArrayList<>();
        for (int slot = 0; slot < ctx.concurrency(); slot++) {
            int s = slot;
            Thread t = new Thread(() -> {
                try {
                    runSlot(ctx, s, s);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, name() + "-slot-" + slot);
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) {
            t.join();
        }
    }
}
