package io.zkchaos.nemesis.faults;

import io.zkchaos.nemesis.DiskControl;
import io.zkchaos.nemesis.DiskFault;
import io.zkchaos.nemesis.Fault;
import io.zkchaos.nemesis.FaultRecord;
import io.zkchaos.nemesis.Felt;
import io.zkchaos.nemesis.NemesisTarget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The faults of {@link Fault.Family#DISK}: a node's data directory fails rather than forgets (EIO on writes or fsyncs,
 * full, slow fsyncs) until it is repaired; undone by {@link #repairDisks}. They need a system that implements
 * {@link DiskControl}; on one that does not they cannot act, and say so. Every start acts, then returns what it did
 * as a {@link FaultRecord} named for the fault being run.
 *
 * <p>Not thread-safe: one nemesis drives one cluster.
 */
public final class DiskFaults {

    private final Acting on;

    /** @param fault the fault being run: the name its records carry */
    public DiskFaults(NemesisTarget target, String fault) {
        this.on = new Acting(target, fault);
    }

    /** A random running node's writes fail with EIO until {@link #repairDisks}. */
    public FaultRecord diskWriteErrors() {
        return failDisk(DiskFault.WriteErrors::new);
    }

    /** A random running node's fsyncs fail with EIO until {@link #repairDisks}. */
    public FaultRecord diskFsyncErrors() {
        return failDisk(DiskFault.FsyncErrors::new);
    }

    /** A random running node's disk is full until {@link #repairDisks}. */
    public FaultRecord diskFull() {
        return failDisk(DiskFault.Full::new);
    }

    /**
     * A random running node's fsyncs each wait an extra delay in {@code [least, most]}, drawn in turn from a seeded
     * sequence, until {@link #repairDisks}.
     */
    public FaultRecord slowFsyncs(Duration least, Duration most) {
        return failDisk(() -> new DiskFault.SlowFsync(least, most, on.choices.upTo("fsync-delay-seed",
                Integer.MAX_VALUE)));
    }

    private FaultRecord failDisk(Supplier<DiskFault> how) {
        String node = on.pick(on.running());
        DiskFault f = how.get();
        DiskControl disks = on.control(DiskControl.class, "make " + node + "'s disk fail: its data is not on a file "
                + "system that can fail on command");
        Acting.refusedAsState(() -> {
            disks.injectDiskFault(node, f);
            return null;
        });
        return on.record(node + "'s disk: " + f.describe(), List.of(node));
    }

    // ---- undoing ----

    /**
     * Repairs every failing disk, then starts every node that is down on its data: a server that exited on its
     * disk's errors is started again, as its supervisor would once the disk works. A server that is still running
     * is left as it is, whatever state the errors left it in. Recorded as {@code repair-disks}.
     */
    public FaultRecord repairDisks() {
        FaultRecord repaired = repairFailingDisks();
        FaultRecord restarted = new CrashFaults(on).restartDown();
        List<String> nodes = new ArrayList<>(repaired.nodes());
        nodes.addAll(restarted.nodes());
        return new FaultRecord("repair-disks", repaired.description() + "; " + restarted.description(),
                nodes.stream().distinct().sorted().toList(), List.of(), new java.util.TreeMap<>())
                .withFelt(repaired.felt());
    }

    /**
     * Ends the faults of every failing disk (each tried, whatever the others do); restarts nothing. A system without
     * {@link DiskControl} has no failing disk: nothing is repaired.
     */
    public FaultRecord repairFailingDisks() {
        DiskControl disks = on.optional(DiskControl.class).orElse(null);
        Map<String, List<DiskFault>> faults = disks == null ? Map.of() : disks.diskFaults();
        List<String> failing = faults.keySet().stream().sorted().toList();
        // what each disk did in its window, counted before the repair ends it
        List<Felt> felt = new ArrayList<>();
        for (String node : failing) {
            disks.diskCountsSinceFault(node).ifPresent(c -> felt.add(diskFelt(node, faults.get(node), c)));
        }
        return Acting.onEachIndependently("repair-disks", "repair the disk of", failing,
                node -> disks.repairDisk(node)).withFelt(felt);
    }

    /**
     * Whether a failing disk was felt: the file system returned its errors, refused for want of space or slowed
     * fsyncs at least once in the window (a server that wrote and fsynced nothing meanwhile never met the fault).
     */
    public static Felt diskFelt(String node, List<DiskFault> faults, Map<String, Long> counts) {
        long writes = counts.getOrDefault("writes", 0L);
        long fsyncs = counts.getOrDefault("fsyncs", 0L);
        List<String> met = new ArrayList<>();
        List<String> missed = new ArrayList<>();
        for (DiskFault f : faults) {
            String[] counterAndWords = f instanceof DiskFault.WriteErrors
                    ? new String[] {"failed_writes", "writes failed", "failed no write"}
                    : f instanceof DiskFault.FsyncErrors
                    ? new String[] {"failed_fsyncs", "fsyncs failed", "failed no fsync"}
                    : f instanceof DiskFault.Full
                    ? new String[] {"full_writes", "writes refused for want of space", "refused no write"}
                    : new String[] {"slowed_fsyncs", "fsyncs slowed", "slowed no fsync"};
            long n = counts.getOrDefault(counterAndWords[0], 0L);
            if (n > 0) {
                met.add(n + " " + counterAndWords[1]);
            } else {
                missed.add(counterAndWords[2]);
            }
        }
        String window = "(" + writes + " write" + (writes == 1 ? "" : "s") + ", " + fsyncs + " fsync"
                + (fsyncs == 1 ? "" : "s") + " in its window)";
        return met.isEmpty() ? Felt.of(node, false, String.join(", ", missed) + " " + window)
                : Felt.of(node, true, String.join(", ", met) + " " + window);
    }
}
