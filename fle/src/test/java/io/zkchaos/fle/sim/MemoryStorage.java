package io.zkchaos.fle.sim;

import io.zkchaos.fle.storage.Storage;
import io.zkchaos.fle.zab.Entry;
import java.util.ArrayList;
import java.util.List;

/**
 * Durable state in memory for simulated servers: it outlives a simulated crash (the group keeps the object and hands
 * it to the next incarnation), and every call is "durable" when it returns. What a crash loses is only what the server
 * held in process memory — which is what the {@code ack-before-durable} bug holds.
 */
public final class MemoryStorage implements Storage {

    private long acceptedEpoch;
    private long currentEpoch;
    private final List<Entry> history = new ArrayList<>();
    private int appends;

    /** Pre-seeds a state, as if a server had run before (for tests that start from given histories). */
    public MemoryStorage seed(long acceptedEpoch, long currentEpoch, List<Entry> entries) {
        this.acceptedEpoch = acceptedEpoch;
        this.currentEpoch = currentEpoch;
        history.clear();
        history.addAll(entries);
        return this;
    }

    @Override
    public Persisted load() {
        return new Persisted(acceptedEpoch, currentEpoch, history);
    }

    @Override
    public void append(List<Entry> entries) {
        for (Entry e : entries) {
            if (!history.isEmpty() && e.zxid() <= history.get(history.size() - 1).zxid()) {
                throw new IllegalArgumentException("zxid order broken by " + e);
            }
            history.add(e);
        }
        appends++;
    }

    @Override
    public void truncateAfter(long zxid) {
        history.removeIf(e -> e.zxid() > zxid);
    }

    @Override
    public void replace(List<Entry> entries) {
        history.clear();
        history.addAll(entries);
    }

    @Override
    public void acceptedEpoch(long epoch) {
        acceptedEpoch = epoch;
    }

    @Override
    public void currentEpoch(long epoch) {
        currentEpoch = epoch;
    }

    /** What a restart would read: the durable history. */
    public List<Entry> durableHistory() {
        return List.copyOf(history);
    }

    public long acceptedEpoch() {
        return acceptedEpoch;
    }

    public long currentEpoch() {
        return currentEpoch;
    }

    /** How many append calls reached the storage (each is one fsync on a real disk). */
    public int appends() {
        return appends;
    }

    @Override
    public void close() {
    }
}
