package io.zkchaos.fle.sim;

import io.zkchaos.fle.sched.Scheduler;
import java.time.Duration;
import java.util.PriorityQueue;
import java.util.function.BooleanSupplier;
import org.slf4j.MDC;

/**
 * Virtual time for a whole simulated group: one queue of tasks ordered by (due time, submission order), run one at a
 * time on the caller's thread. Each node gets its own {@link Lane} (a {@link Scheduler}) per incarnation; killing a
 * lane drops its pending tasks, as a crash drops a process's threads. Nothing here reads the wall clock, so a test is
 * a deterministic function of what it does. Log lines of simulated servers carry the virtual time as {@code vt}.
 */
public final class SimClock {

    private record Task(long time, long seq, Lane lane, Runnable run, boolean[] cancelled)
            implements Comparable<Task> {
        @Override
        public int compareTo(Task o) {
            int c = Long.compare(time, o.time);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }
    }

    private final PriorityQueue<Task> queue = new PriorityQueue<>();
    private long now;
    private long seq;
    private long executed;

    /** Virtual milliseconds since the start. */
    public long now() {
        return now;
    }

    /** How many tasks have run (a measure of work, for diagnostics). */
    public long executed() {
        return executed;
    }

    /** A new lane; tasks of a killed lane never run. */
    public Lane lane(String name) {
        return new Lane(name);
    }

    /** Queues a task outside any node (the network's deliveries). */
    public void at(long time, Runnable task) {
        enqueue(Math.max(time, now), null, task, new boolean[1]);
    }

    private void enqueue(long time, Lane lane, Runnable r, boolean[] cancelled) {
        queue.add(new Task(time, seq++, lane, r, cancelled));
    }

    /** Runs the next task; false when there is none. */
    public boolean step() {
        Task t = queue.poll();
        if (t == null) {
            return false;
        }
        now = Math.max(now, t.time);
        if (!t.cancelled[0] && (t.lane == null || t.lane.alive)) {
            executed++;
            MDC.put("vt", Long.toString(now));
            try {
                t.run.run();
            } finally {
                MDC.remove("vt");
            }
        }
        return true;
    }

    /** Runs every task due within {@code d} of now, then sets the clock to now + d. */
    public void run(Duration d) {
        long until = now + d.toMillis();
        while (!queue.isEmpty() && queue.peek().time <= until) {
            step();
        }
        now = until;
    }

    /**
     * Runs tasks until {@code condition} holds (checked before each task) or {@code limit} of virtual time has
     * passed.
     *
     * @return whether the condition holds
     */
    public boolean runUntil(BooleanSupplier condition, Duration limit) {
        long until = now + limit.toMillis();
        while (true) {
            if (condition.getAsBoolean()) {
                return true;
            }
            if (queue.isEmpty() || queue.peek().time > until) {
                now = Math.max(now, until);
                return condition.getAsBoolean();
            }
            step();
        }
    }

    /** One node incarnation's scheduler on the shared virtual clock. */
    public final class Lane implements Scheduler {
        private final String name;
        private boolean alive = true;

        private Lane(String name) {
            this.name = name;
        }

        @Override
        public long now() {
            return now;
        }

        @Override
        public void execute(Runnable task) {
            if (alive) {
                enqueue(now, this, task, new boolean[1]);
            }
        }

        @Override
        public Cancellable schedule(long delayMs, Runnable task) {
            if (!alive) {
                return Cancellable.NONE;
            }
            boolean[] cancelled = new boolean[1];
            enqueue(now + Math.max(0, delayMs), this, task, cancelled);
            return () -> cancelled[0] = true;
        }

        /** Drops every pending and future task of this lane (the process died). */
        public void kill() {
            alive = false;
        }

        public boolean alive() {
            return alive;
        }

        @Override
        public String toString() {
            return name;
        }
    }
}
