package io.zkchaos.workloads.election;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What the herd effect costs, counted across candidates: watch notifications delivered to candidates (on the
 * node they wait for) and getChildren calls the servers answered. Thread-safe; share one instance among the candidates being measured.
 */
public final class HerdCounters {

    private final AtomicLong notifications = new AtomicLong();
    private final AtomicLong getChildrenCalls = new AtomicLong();

    void notified() {
        notifications.incrementAndGet();
    }

    void listed() {
        getChildrenCalls.incrementAndGet();
    }

    public long notifications() {
        return notifications.get();
    }

    public long getChildrenCalls() {
        return getChildrenCalls.get();
    }

    public void reset() {
        notifications.set(0);
        getChildrenCalls.set(0);
    }
}
