package io.zkchaos.checkers.linear;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Budgets and cancellation shared by the partition searches of one check. Searches poll it every few thousand
 * steps; when a budget runs out or the check is cancelled, {@link #poll} throws {@link Stop}.
 */
final class SearchControl {

    /** Why a search stopped without a verdict. */
    enum Reason { TIME_LIMIT, MEMORY_GUARD, CANCELLED }

    /** Thrown out of a search loop to stop it; carries no stack trace (it is control flow). */
    static final class Stop extends RuntimeException {
        final Reason reason;

        Stop(Reason reason, String message) {
            super(message, null, false, false);
            this.reason = reason;
        }
    }

    private final long startNanos;
    private final long deadlineNanos;
    private final long timeLimitMillis;
    private final long maxCacheEntries;
    private final long maxCacheBytes;
    private final AtomicLong cacheEntries = new AtomicLong();
    private final AtomicLong cacheBytes = new AtomicLong();
    private final AtomicLong peakCacheEntries = new AtomicLong();
    private volatile boolean cancelled;

    SearchControl(long timeLimitMillis, long maxCacheEntries, long maxCacheBytes) {
        this.startNanos = System.nanoTime();
        this.timeLimitMillis = timeLimitMillis;
        this.deadlineNanos = timeLimitMillis <= 0 ? Long.MAX_VALUE : startNanos + timeLimitMillis * 1_000_000L;
        this.maxCacheEntries = maxCacheEntries;
        this.maxCacheBytes = maxCacheBytes;
    }

    void cancel() {
        cancelled = true;
    }

    boolean isCancelled() {
        return cancelled;
    }

    long elapsedMillis() {
        return (System.nanoTime() - startNanos) / 1_000_000L;
    }

    /**
     * Accounts for {@code entries} new cache entries of {@code bytesEach} bytes and checks every budget.
     *
     * @throws Stop if the check was cancelled, the time limit passed or the memory guard tripped
     */
    void poll(long entries, long bytesEach) {
        if (cancelled) {
            throw new Stop(Reason.CANCELLED, "cancelled");
        }
        if (entries > 0) {
            long total = cacheEntries.addAndGet(entries);
            peakCacheEntries.accumulateAndGet(total, Math::max);
            long bytes = cacheBytes.addAndGet(entries * bytesEach);
            if (total > maxCacheEntries) {
                throw new Stop(Reason.MEMORY_GUARD, "memory guard tripped (the searches' caches held " + total
                        + " configurations; limit maxCacheEntries=" + maxCacheEntries + ")");
            }
            if (bytes > maxCacheBytes) {
                throw new Stop(Reason.MEMORY_GUARD, "memory guard tripped (the searches' caches took about "
                        + (bytes >> 20) + " MiB; limit " + (maxCacheBytes >> 20) + " MiB, half the maximum heap)");
            }
        }
        if (System.nanoTime() > deadlineNanos) {
            throw new Stop(Reason.TIME_LIMIT, "time limit of " + timeLimitMillis + " ms reached");
        }
    }

    /**
     * Returns a finished search's cache to the budget.
     *
     * @param reported what the search already accounted for through {@link #poll}
     * @param total    the cache's final size (counted towards the peak)
     */
    void release(long reported, long total, long bytesEach) {
        long now = cacheEntries.addAndGet(total - reported);
        peakCacheEntries.accumulateAndGet(now, Math::max);
        cacheEntries.addAndGet(-total);
        cacheBytes.addAndGet(-reported * bytesEach);
    }

    long peakCacheEntries() {
        return peakCacheEntries.get();
    }
}
