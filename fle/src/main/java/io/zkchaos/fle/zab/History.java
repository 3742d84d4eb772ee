package io.zkchaos.fle.zab;

import io.zkchaos.fle.Zxid;
import java.util.ArrayList;
import java.util.List;

/**
 * A server's history in memory: every proposal it has accepted, in zxid order (committed or not). The durable copy
 * is the storage's; this one is what the protocol reads.
 */
public final class History {

    private final ArrayList<Entry> entries = new ArrayList<>();

    public History() {
    }

    public History(List<Entry> initial) {
        initial.forEach(this::append);
    }

    public int size() {
        return entries.size();
    }

    public boolean isEmpty() {
        return entries.isEmpty();
    }

    public Entry get(int index) {
        return entries.get(index);
    }

    /** The last zxid, 0 when empty. */
    public long lastZxid() {
        return entries.isEmpty() ? 0 : entries.get(entries.size() - 1).zxid();
    }

    /** Appends {@code e}, whose zxid must be above the last one. */
    public void append(Entry e) {
        if (e.zxid() <= lastZxid()) {
            throw new IllegalArgumentException("zxid " + Zxid.show(e.zxid()) + " does not follow the last zxid "
                    + Zxid.show(lastZxid()));
        }
        entries.add(e);
    }

    /** The index of {@code zxid}, or -1. */
    public int indexOf(long zxid) {
        int i = firstIndexAbove(zxid) - 1;
        return i >= 0 && entries.get(i).zxid() == zxid ? i : -1;
    }

    public boolean contains(long zxid) {
        return indexOf(zxid) >= 0;
    }

    /** The index of the first entry whose zxid is above {@code zxid} ({@link #size()} if none). */
    public int firstIndexAbove(long zxid) {
        int lo = 0;
        int hi = entries.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (entries.get(mid).zxid() <= zxid) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** The largest zxid below {@code zxid}, 0 if none. */
    public long largestBelow(long zxid) {
        int i = firstIndexAbove(zxid - 1) - 1;
        return i >= 0 ? entries.get(i).zxid() : 0;
    }

    /** The entries after {@code zxid}, in order (a copy). */
    public List<Entry> after(long zxid) {
        return List.copyOf(entries.subList(firstIndexAbove(zxid), entries.size()));
    }

    /** The entries up to and including {@code zxid}, in order (a copy). */
    public List<Entry> upTo(long zxid) {
        return List.copyOf(entries.subList(0, firstIndexAbove(zxid)));
    }

    /** Drops every entry after {@code zxid}; returns how many. */
    public int truncateAfter(long zxid) {
        int from = firstIndexAbove(zxid);
        int n = entries.size() - from;
        entries.subList(from, entries.size()).clear();
        return n;
    }

    public void replace(List<Entry> all) {
        entries.clear();
        all.forEach(this::append);
    }

    /** A copy of every entry. */
    public List<Entry> snapshot() {
        return new ArrayList<>(entries);
    }
}
