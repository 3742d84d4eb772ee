package io.zkchaos.nemesis;

/**
 * A machine's power failing under a node: what a {@link NodeControl} implements when its system can lose or tear
 * what a node wrote and did not fsync (its data on a file system that holds writes until fsync: the local backend's
 * lazy file system). A system that does not implement it cannot, and the faults that need it say so as "could not
 * act".
 */
public interface PowerFailure {

    /**
     * SIGKILLs a node (if it runs) and drops every write it made that was not fsynced: what a power failure does to
     * that machine, page cache and all. A SIGKILL alone loses nothing the process wrote (the kernel's page cache
     * survives it).
     *
     * @throws UnsupportedOperationException when this system cannot now (a local cluster without its data
     *                                       directories on the lazy file system)
     */
    void killLosingUnsyncedWrites(String node);

    /**
     * As {@link #killLosingUnsyncedWrites}, but the power fails in the middle of writing back: of each file's bytes
     * written and not fsynced, a prefix in file order (at least one byte, never all; its length drawn from
     * {@code seed}) reaches the disk and the rest is lost, so that a file may end in a partly written record.
     *
     * @return what was torn, in words (for the history): {@code 2 file(s) torn, 37 of 120 unsynced bytes kept}
     * @throws UnsupportedOperationException when this system cannot now
     */
    String killTearingUnsyncedWrites(String node, long seed);
}
