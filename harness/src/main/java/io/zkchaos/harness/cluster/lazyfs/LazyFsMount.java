package io.zkchaos.harness.cluster.lazyfs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One directory on the lazy file system: its files live in {@code <dir>.disk} (what survives a power failure: all
 * metadata, and file data up to each file's last fsync), and {@code <dir>} is the mount through which the server
 * reads and writes. {@link #loseUnsynced()} drops what was written but not fsynced, {@link #tearUnsynced} keeps a
 * prefix of it; {@link #failWrites()}, {@link #failFsyncs()}, {@link #fill()} and {@link #slowFsyncs} make the disk
 * fail until {@link #clearFaults()}; {@link #close()} unmounts and ends the program. Thread-safe.
 */
public final class LazyFsMount implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LazyFsMount.class);
    /** Suffix of the directory that holds the files. */
    public static final String DISK_SUFFIX = ".disk";

    private final Path mountPoint;
    private final Path disk;
    private final Process process;
    private final Path log;
    private boolean closed;

    private LazyFsMount(Path mountPoint, Path disk, Process process, Path log) {
        this.mountPoint = mountPoint;
        this.disk = disk;
        this.process = process;
        this.log = log;
    }

    /**
     * Puts {@code dir} on the lazy file system: moves what it holds into {@code <dir>.disk} (those files are
     * durable), then mounts the file system over {@code dir} and waits until the kernel lists the mount.
     *
     * @param markers extra arguments carried on the program's command line for the reaper (run and owner markers)
     * @param log     where the program's output goes (appended)
     * @throws IllegalStateException when the lazy file system cannot run here, or the mount does not appear within
     *                               {@code bound} (naming the program's output)
     */
    public static LazyFsMount mount(Path dir, List<String> markers, Path log, Duration bound) {
        Path mountPoint = dir.toAbsolutePath().normalize();
        Path disk = mountPoint.resolveSibling(mountPoint.getFileName() + DISK_SUFFIX);
        Path exe = LazyFs.binary();
        if (Mounts.mounted(mountPoint)) {
            throw new IllegalStateException(mountPoint + " is already a lazy file system mount");
        }
        try {
            Files.createDirectories(mountPoint);
            Files.createDirectories(disk);
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(mountPoint)) {
                for (Path e : entries) {
                    Files.move(e, disk.resolve(e.getFileName()));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare " + mountPoint + " for the lazy file system", e);
        }
        List<String> cmd = new ArrayList<>(List.of(exe.toString(), disk.toString(), mountPoint.toString()));
        cmd.addAll(markers);
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + String.join(" ", cmd), e);
        }
        LazyFsMount m = new LazyFsMount(mountPoint, disk, p, log);
        long deadline = System.nanoTime() + bound.toNanos();
        while (!Mounts.mounted(mountPoint)) {
            if (!p.isAlive() || System.nanoTime() > deadline) {
                m.close();
                throw new IllegalStateException("the lazy file system did not mount at " + mountPoint + " within "
                        + bound.toMillis() + " ms (" + (p.isAlive() ? "still running" : "exited with code "
                        + p.exitValue()) + "); its output: " + tail(log));
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                m.close();
                throw new IllegalStateException("interrupted waiting for the mount at " + mountPoint, e);
            }
        }
        LOG.debug("lazy file system at {} over {} (pid {})", mountPoint, disk, p.pid());
        return m;
    }

    /** Where the files are kept: what survives a power failure. */
    public Path disk() {
        return disk;
    }

    /** The program's pid. */
    public long pid() {
        return process.pid();
    }

    /**
     * Drops every write that was not fsynced, in every file of the mount: what a power failure does to the page
     * cache. The server above should be dead (killed) first, or it goes on from a state its disk no longer has.
     */
    public synchronized void loseUnsynced() {
        command("lose");
    }

    /**
     * As {@link #loseUnsynced()}, but the power fails in the middle of writing back: of each file's bytes written and
     * not fsynced, a prefix in file order — at least one byte, never all, its length drawn from {@code seed} — reaches
     * the disk first, so that a file may end in a partly written record.
     */
    public synchronized Tear tearUnsynced(long seed) {
        Map<String, Long> before = counters();
        command("tear " + Long.toUnsignedString(seed));
        Map<String, Long> after = counters();
        return new Tear(after.get("torn_files") - before.get("torn_files"),
                after.get("torn_kept_bytes") - before.get("torn_kept_bytes"),
                after.get("torn_dropped_bytes") - before.get("torn_dropped_bytes"));
    }

    /**
     * What one tear did.
     *
     * @param files        the files that kept part of their unsynced bytes (a file with fewer than two keeps none)
     * @param keptBytes    the unsynced bytes those files kept
     * @param droppedBytes the unsynced bytes those files lost (files that kept none are not counted)
     */
    public record Tear(long files, long keptBytes, long droppedBytes) {
        @Override
        public String toString() {
            return files == 0 ? "nothing to tear" : files + " file(s) torn, " + keptBytes + " of "
                    + (keptBytes + droppedBytes) + " unsynced bytes kept";
        }
    }

    /** Writes every file as an fsync of each would. */
    public synchronized void syncAll() {
        command("sync");
    }

    /** Every {@code write(2)} under the mount fails with {@code EIO} until {@link #clearFaults()}. */
    public synchronized void failWrites() {
        command("fault eio-write");
    }

    /**
     * Every {@code fsync(2)}/{@code fdatasync(2)} under the mount fails with {@code EIO} (what it would have written
     * stays held) until {@link #clearFaults()}.
     */
    public synchronized void failFsyncs() {
        command("fault eio-fsync");
    }

    /**
     * The disk is full until {@link #clearFaults()}: a write that needs space — past a file's end, or into a hole of
     * a sparse file — fails with {@code ENOSPC}; overwriting what a file holds still works.
     */
    public synchronized void fill() {
        command("fault enospc");
    }

    /**
     * Every fsync waits an extra delay in {@code [least, most]} (millisecond steps), each drawn in turn from
     * {@code seed}, until {@link #clearFaults()}. The delay holds up the fsync only: the rest of the mount is served
     * meanwhile.
     */
    public synchronized void slowFsyncs(Duration least, Duration most, long seed) {
        if (least.isNegative() || most.compareTo(least) < 0) {
            throw new IllegalArgumentException("slow fsync delays must satisfy 0 <= least <= most, not "
                    + least.toMillis() + " ms .. " + most.toMillis() + " ms");
        }
        command("fault slow-fsync " + least.toMillis() + " " + most.toMillis() + " " + Long.toUnsignedString(seed));
    }

    /** Ends every fault of the disk; what was written and not fsynced is still held. */
    public synchronized void clearFaults() {
        command("clear");
    }

    /**
     * The program's counters — writes, fsyncs, losses, lost_pages, dirty_bytes, failed_writes, failed_fsyncs,
     * full_writes, slowed_fsyncs, torn_files, ... — and the faults in force, each 0 or 1: fault_eio_write,
     * fault_eio_fsync, fault_enospc, fault_slow_fsync.
     */
    public synchronized Map<String, Long> counters() {
        Map<String, Long> out = new LinkedHashMap<>();
        try {
            for (String line : Files.readAllLines(mountPoint.resolve(LazyFs.CONTROL), StandardCharsets.UTF_8)) {
                String[] kv = line.trim().split(" ");
                if (kv.length == 2) {
                    out.put(kv[0], Long.parseLong(kv[1]));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the counters of the lazy file system at " + mountPoint, e);
        }
        return out;
    }

    private void command(String c) {
        if (closed) {
            throw new IllegalStateException("the lazy file system at " + mountPoint + " is unmounted");
        }
        try {
            Files.writeString(mountPoint.resolve(LazyFs.CONTROL), c + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("the lazy file system at " + mountPoint + " refused '" + c + "': "
                    + e.getMessage() + "; its output: " + tail(log), e);
        }
    }

    /**
     * Unmounts and ends the program: SIGTERM (it unmounts itself and exits), then, if the mount is still there after
     * 10 s, a lazy unmount and SIGKILL. Whatever was not fsynced is dropped; {@code <dir>.disk} keeps the rest.
     * Idempotent.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                LOG.warn("the lazy file system at {} (pid {}) did not exit on SIGTERM; unmounting it lazily",
                        mountPoint, process.pid());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!Mounts.unmountLazily(mountPoint)) {
            LOG.warn("the lazy file system at {} is still mounted", mountPoint);
        }
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }

    private static String tail(Path log) {
        try {
            String all = Files.readString(log, StandardCharsets.UTF_8);
            return all.length() > 2000 ? all.substring(all.length() - 2000) : all;
        } catch (IOException e) {
            return "(no output: " + e.getMessage() + ")";
        }
    }

    @Override
    public String toString() {
        return "lazyfs " + mountPoint + " over " + disk + " (pid " + process.pid() + ")";
    }
}
