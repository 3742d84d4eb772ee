package io.zkchaos.harness.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends the processes left behind by a harness that was itself killed (its shutdown hook never ran): every
 * {@link JvmProcess} it started — ZooKeeper servers, fle nodes, client processes, frozen ones included.
 *
 * <p>It looks at pid files ({@code <runs root>/<run>/n1/server.pid}, {@code .../clients/c0/client.pid}: any
 * {@code *.pid} up to {@value #DEPTH} levels down) and ends a process only when it can prove the harness started it
 * and that harness is gone: the process's {@code /proc/<pid>/cmdline} carries the marker {@code -Dzkchaos.run=<run
 * id>} of the pid file's run, and the owner it names ({@code -Dzkchaos.owner=<pid>@<start>}) is no longer alive
 * ({@link ProcessMarkers}). A pid file whose process is gone, or whose pid now belongs to another program, is deleted
 * and nothing is killed.
 *
 * <p>{@link #sweep} covers what pid files cannot: a run directory deleted while its processes lived (a test's
 * temporary directory). It looks at every process of the machine and ends those that carry the run marker, a role
 * marker ({@link JvmProcess}'s) and name a dead owner. {@link #reapLeftovers} runs both (the sweep unless the system
 * property {@value #SWEEP_PROPERTY} is {@code false}); it is the entry the backends use before a cluster starts.
 */
public final class Reaper {

    private static final Logger LOG = LoggerFactory.getLogger(Reaper.class);
    /** How deep under a root pid files are looked for. */
    static final int DEPTH = 6;

    /** Set to {@code false} to keep {@link #reapLeftovers} from sweeping every process of the machine. */
    public static final String SWEEP_PROPERTY = "zkchaos.reaper.sweep";

    /** A process the reaper ended; {@code pidFile} is null when {@link #sweep} found it. */
    public record Reaped(long pid, String runId, Path pidFile) {
    }

    private Reaper() {
    }

    /**
     * The one reaping step, run before a cluster starts: ends the orphans whose pid files lie anywhere under
     * {@code root} (a store, or a directory of run directories), then {@link #sweep}s the machine unless
     * {@value #SWEEP_PROPERTY} is {@code false}. Logs what it ends; never throws.
     */
    public static void reapLeftovers(Path root) {
        try {
            reap(root);
        } catch (RuntimeException e) {
            LOG.warn("could not reap leftovers under {}: {}", root, e.toString());
        }
        if (sweepEnabled()) {
            try {
                sweep(id -> true);
            } catch (RuntimeException e) {
                LOG.warn("could not sweep for orphaned processes: {}", e.toString());
            }
        }
    }

    /**
     * Ends the orphans recorded under {@code runsRoot}: pid files up to {@value #DEPTH} levels down (a store's
     * {@code <scenario>/<time>/nodes/<node>/server.pid}, or a runs root's {@code <run>/<node>/server.pid}). Missing
     * root: nothing.
     *
     * @return the processes that were ended
     */
    public static List<Reaped> reap(Path runsRoot) {
        List<Reaped> reaped = new ArrayList<>();
        if (!Files.isDirectory(runsRoot)) {
            return reaped;
        }
        List<Path> pidFiles;
        try (Stream<Path> s = Files.find(runsRoot, DEPTH, (p, a) -> a.isRegularFile()
                && p.getFileName().toString().endsWith(JvmProcess.PID_SUFFIX))) {
            pidFiles = s.toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot scan " + runsRoot + " for pid files", e);
        }
        for (Path pidFile : pidFiles) {
            reapOne(pidFile).ifPresent(reaped::add);
        }
        return reaped;
    }

    /**
     * Ends every {@link JvmProcess} on the machine (it carries a role marker) whose command line carries a run marker
     * accepted by {@code runs} and names an owner that is dead. The pid file, if any, is left to {@link #reap}.
     *
     * @return the processes that were ended
     */
    public static List<Reaped> sweep(Predicate<String> runs) {
        List<Reaped> reaped = new ArrayList<>();
        List<ProcessHandle> all;
        try (Stream<ProcessHandle> s = ProcessHandle.allProcesses()) {
            all = s.toList();
        }
        for (ProcessHandle p : all) {
            ProcessMarkers m = ProcessMarkers.of(p.pid());
            if (m.run().isEmpty() || !runs.test(m.run().get()) || m.role().isEmpty() || !m.ownerDead()) {
                continue;
            }
            LOG.warn("sweeping {} process pid {} of run {} left by dead harness {}", m.role().get(), p.pid(),
                    m.run().get(), m.owner().get());
            end(p, m.run().get());
            reaped.add(new Reaped(p.pid(), m.run().get(), null));
        }
        return reaped;
    }

    /** Whether {@link #reapLeftovers} (and the sweeps like it) look at every process: unless {@value #SWEEP_PROPERTY} is false. */
    public static boolean sweepEnabled() {
        return !"false".equalsIgnoreCase(System.getProperty(SWEEP_PROPERTY, "true"));
    }

    private static void end(ProcessHandle p, String runId) {
        p.destroyForcibly(); // SIGKILL: also ends a SIGSTOPped process
        try {
            p.onExit().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("pid " + p.pid() + " of run " + runId + " survived SIGKILL for 10 s", e);
        }
    }

    /** Reads a pid file written by {@link #writePidFile}; ends its process if it is a proven orphan. */
    static Optional<Reaped> reapOne(Path pidFile) {
        long pid;
        String runId;
        try {
            List<String> lines = Files.readAllLines(pidFile, StandardCharsets.UTF_8);
            pid = Long.parseLong(lines.get(0).trim());
            runId = lines.get(1).trim();
        } catch (IOException | RuntimeException e) {
            LOG.warn("ignoring unreadable pid file {}: {}", pidFile, e.toString());
            return Optional.empty();
        }
        Optional<ProcessHandle> handle = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
        if (handle.isEmpty()) {
            deleteQuietly(pidFile);
            return Optional.empty();
        }
        ProcessMarkers m = ProcessMarkers.of(pid);
        if (!m.run().equals(Optional.of(runId))) {
            // The pid now belongs to another program: not ours to end.
            deleteQuietly(pidFile);
            return Optional.empty();
        }
        if (!m.ownerDead()) {
            return Optional.empty(); // a live harness owns it (maybe this one): leave it
        }
        LOG.warn("reaping process pid {} of run {} ({}) left by dead harness {}", pid, runId, pidFile.getFileName(),
                m.owner().get());
        end(handle.get(), runId);
        deleteQuietly(pidFile);
        return Optional.of(new Reaped(pid, runId, pidFile));
    }

    /** Writes a pid file: the pid on the first line, the run id on the second. */
    static void writePidFile(Path pidFile, long pid, String runId) {
        try {
            Files.writeString(pidFile, pid + "\n" + runId + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write pid file " + pidFile, e);
        }
    }

    static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            LOG.warn("cannot delete {}: {}", p, e.toString());
        }
    }
}
