package io.zkchaos.nemesis;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The nodes' disks, failing on command: what a {@link NodeControl} implements when its system can make a node's data
 * directory fail rather than forget (the local backend's lazy file system). A system that does not implement it has
 * no failing disks, and the disk faults ({@link Fault.Family#DISK}) say so as "could not act".
 */
public interface DiskControl {

    /**
     * Makes {@code node}'s disk (its data directory) fail as {@code fault} says, in addition to any fault it has,
     * until {@link #repairDisk}. The server is not restarted: it meets the fault at its next write or fsync.
     *
     * @throws UnsupportedOperationException when this system cannot now (a local cluster without its data
     *                                       directories on the lazy file system)
     */
    void injectDiskFault(String node, DiskFault fault);

    /** Ends every fault of {@code node}'s disk; what the server does about it is its own affair. No-op if none. */
    void repairDisk(String node);

    /** Each node whose disk fails now, with its faults in the order they began; empty when none. */
    Map<String, List<DiskFault>> diskFaults();

    /**
     * What {@code node}'s disk did since its current faults began ({@link #injectDiskFault} on a disk that had none),
     * as the file system under it counted: {@code writes}, {@code fsyncs}, {@code failed_writes},
     * {@code failed_fsyncs}, {@code full_writes}, {@code slowed_fsyncs} (each the change over the window). Read
     * before {@link #repairDisk}. Empty when this system does not count (the default) or the disk has no fault.
     */
    default Optional<Map<String, Long>> diskCountsSinceFault(String node) {
        return Optional.empty();
    }
}
