package io.zkchaos.nemesis;

import java.time.Duration;
import java.util.Objects;

/**
 * A way a node's disk fails rather than forgets, for a window ({@link DiskControl#injectDiskFault}): its data
 * directory's writes or fsyncs return errors, it is full, or its fsyncs are slow. The faults hold until
 * {@link DiskControl#repairDisk} and across restarts of the node (they belong to the disk, not to the process). What
 * each does at the level of system calls is in {@code docs/lazyfs.md}.
 */
public sealed interface DiskFault {

    /** What it does, for the history: {@code fsyncs fail with EIO}. */
    String describe();

    /** Every {@code write(2)} of a file fails with {@code EIO}: nothing of it is kept. */
    record WriteErrors() implements DiskFault {
        @Override
        public String describe() {
            return "writes fail with EIO";
        }
    }

    /**
     * Every {@code fsync(2)} and {@code fdatasync(2)} fails with {@code EIO}; writes still succeed (into memory, as
     * into a page cache). What a failed fsync would have written stays held, unsynced.
     */
    record FsyncErrors() implements DiskFault {
        @Override
        public String describe() {
            return "fsyncs fail with EIO";
        }
    }

    /** The disk is full: a write that needs space (past a file's end, or into a hole) fails with {@code ENOSPC}. */
    record Full() implements DiskFault {
        @Override
        public String describe() {
            return "full: writes that need space fail with ENOSPC";
        }
    }

    /**
     * Every fsync waits an extra delay in {@code [least, most]} before it writes, each drawn in turn from
     * {@code seed}.
     */
    record SlowFsync(Duration least, Duration most, long seed) implements DiskFault {
        public SlowFsync {
            Objects.requireNonNull(least, "least");
            Objects.requireNonNull(most, "most");
            if (least.isNegative() || most.compareTo(least) < 0) {
                throw new IllegalArgumentException("slow fsync delays must satisfy 0 <= least <= most, not "
                        + least.toMillis() + " ms .. " + most.toMillis() + " ms");
            }
        }

        @Override
        public String describe() {
            return "fsyncs wait " + least.toMillis() + ".." + most.toMillis() + " ms more (delays seeded " + seed
                    + ")";
        }
    }
}
