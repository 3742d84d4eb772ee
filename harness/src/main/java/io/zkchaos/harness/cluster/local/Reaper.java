package io.zkchaos.harness.cluster.local;

import io.zkchaos.harness.cluster.lazyfs.LazyFs;
import io.zkchaos.harness.cluster.lazyfs.Mounts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends the processes left behind by a harness that was itself killed (its shutdown hook never ran): ZooKeeper
 * servers, and the processes started through {@link JvmProcess} (client processes, frozen ones included).
 *
 * <p>It looks only at pid files ({@code <runs root>/<run>/<node>/server.pid}, {@code .../clients/c0/client.pid})
 * and ends a process only when it can prove the harness started it and that harness is gone: the process's
 * {@code /proc/<pid>/cmdline} carries the marker {@code -Dzkchaos.run=<run id>} of the pid file's run, and the owner
 * it names ({@code -Dzkchaos.owner=<pid>@<start>}) is no longer alive. A pid file whose process is gone, or whose pid
 * now belongs to another program, is deleted and nothing is killed.
 *
 * <p>{@link #sweep} covers what pid files cannot: a run directory deleted while its processes lived (a test's
 * temporary directory). It looks at every process and ends those that carry the run marker, name a dead owner and
 * either run a server's main class ({@code QuorumPeerMain}, or the fle nodes' {@code NodeMain}: {@link ServerKind}) or
 * carry {@link JvmProcess}'s role marker. {@link #sweepLazyFs} does the same for the lazy file system's programs and
 * detaches their mounts (and any mount of it whose program is gone). {@link #reapLeftovers} runs all of them (the
 * sweeps unless the system property {@value #SWEEP_PROPERTY} is {@code false}); it is the only entry that starting
 * clusters use.
 */
public final class Reaper {

    /** The command-line marker naming a server's run. */
    public static final String RUN_MARKER = "-Dzkchaos.run=";
    /** The command-line marker naming the harness that started a server. */
    public static final String OWNER_MARKER = "-Dzkchaos.owner=";
    /** Name of the per-node pid file. */
    public static final String PID_FILE = "server.pid";
    /** Name of a client process's pid file ({@link JvmProcess} of role {@code client}). */
    public static final String CLIENT_PID_FILE = "client.pid";
    /** Every pid file name the reaper reads. */
    static final java.util.Set<String> PID_FILES = java.util.Set.of(PID_FILE, CLIENT_PID_FILE);

    private static final Logger LOG = LoggerFactory.getLogger(Reaper.class);
    /** How deep under a root pid files are looked for. */
    static final int DEPTH = 6;

    /** Set to {@code false} to keep {@link LocalCluster#start} from sweeping every process of the machine. */
    public static final String SWEEP_PROPERTY = "zkchaos.reaper.sweep";
    /** The main classes a swept process must run (one of). */
    static final List<String> SERVER_MAINS = ServerKind.MAIN_CLASSES;

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
                LOG.warn("could not sweep for orphaned servers: {}", e.toString());
            }
            try {
                sweepLazyFs(id -> true);
            } catch (RuntimeException e) {
                LOG.warn("could not sweep for orphaned lazy file systems: {}", e.toString());
            }
        }
    }

    /**
     * Ends the lazy file system programs ({@code zkchaos-lazyfs}, see {@code LazyFsMount}) whose command line carries
     * a run marker accepted by {@code runs} and names a dead owner, and unmounts their mount points; then unmounts
     * every lazy file system mount that no living program serves (its program was killed: every access to it
     * fails). Mounts of living owners are left alone.
     *
     * @return the programs that were ended (a dead mount detached without a program to end is logged only)
     */
    public static List<Reaped> sweepLazyFs(java.util.function.Predicate<String> runs) {
        List<Reaped> reaped = new ArrayList<>();
        java.util.Set<Path> served = new java.util.HashSet<>();
        List<ProcessHandle> all;
        try (Stream<ProcessHandle> s = ProcessHandle.allProcesses()) {
            all = s.toList();
        }
        for (ProcessHandle p : all) {
            List<String> cmdline = cmdline(p.pid());
            if (cmdline.size() < 3 || !Path.of(cmdline.get(0)).getFileName().toString()
                    .startsWith(LazyFs.PROGRAM)) {
                continue;
            }
            Path mountPoint = Path.of(cmdline.get(2));
            Optional<String> run = cmdline.stream().filter(a -> a.startsWith(RUN_MARKER))
                    .map(a -> a.substring(RUN_MARKER.length())).findFirst();
            Optional<Owner> owner = cmdline.stream().filter(a -> a.startsWith(OWNER_MARKER)).findFirst()
                    .flatMap(a -> Owner.parse(a.substring(OWNER_MARKER.length())));
            if (run.isEmpty() || !runs.test(run.get()) || owner.isEmpty() || owner.get().alive()) {
                served.add(mountPoint);
                continue;
            }
            LOG.warn("sweeping lazy file system pid {} at {} of run {} left by dead harness {}", p.pid(),
                    mountPoint, run.get(), owner.get());
            p.destroy(); // SIGTERM: it unmounts itself
            try {
                p.onExit().get(5, TimeUnit.SECONDS);
            } catch (Exception e) {
                p.destroyForcibly();
            }
            Mounts.unmountLazily(mountPoint);
            reaped.add(new Reaped(p.pid(), run.get(), null));
        }
        for (Path m : Mounts.lazyFsMounts()) {
            if (!served.contains(m)) {
                LOG.warn("detaching lazy file system mount {}: no program serves it", m);
                Mounts.unmountLazily(m);
            }
        }
        return reaped;
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
        try (Stream<Path> s = Files.find(runsRoot, DEPTH, (p, a) -> PID_FILES.contains(p.getFileName().toString()))) {
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
     * Ends every server (ZooKeeper or fle node) and every {@link JvmProcess} on the machine whose command line carries a
     * run marker accepted by {@code runs} and names an owner that is dead. The pid file, if any, is left to {@link #reap}.
     *
     * @return the processes that were ended
     */
    public static List<Reaped> sweep(java.util.function.Predicate<String> runs) {
        List<Reaped> reaped = new ArrayList<>();
        List<ProcessHandle> all;
        try (Stream<ProcessHandle> s = ProcessHandle.allProcesses()) {
            all = s.toList();
        }
        for (ProcessHandle p : all) {
            List<String> cmdline = cmdline(p.pid());
            Optional<String> run = cmdline.stream().filter(a -> a.startsWith(RUN_MARKER))
                    .map(a -> a.substring(RUN_MARKER.length())).findFirst();
            if (run.isEmpty() || !runs.test(run.get()) || !(cmdline.stream().anyMatch(SERVER_MAINS::contains)
                    || cmdline.stream().anyMatch(a -> a.startsWith(JvmProcess.ROLE_MARKER)))) {
                continue;
            }
            Optional<Owner> owner = cmdline.stream().filter(a -> a.startsWith(OWNER_MARKER)).findFirst()
                    .flatMap(a -> Owner.parse(a.substring(OWNER_MARKER.length())));
            if (owner.isEmpty() || owner.get().alive()) {
                continue;
            }
            LOG.warn("sweeping process pid {} of run {} left by dead harness {}", p.pid(), run.get(),
                    owner.get());
            end(p, run.get());
            reaped.add(new Reaped(p.pid(), run.get(), null));
        }
        return reaped;
    }

    /** Whether {@link LocalCluster#start} should {@link #sweep}: unless {@value #SWEEP_PROPERTY} is false. */
    static boolean sweepEnabled() {
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
        List<String> cmdline = cmdline(pid);
        if (!cmdline.contains(RUN_MARKER + runId)) {
            // The pid now belongs to another program: not ours to end.
            deleteQuietly(pidFile);
            return Optional.empty();
        }
        Optional<Owner> owner = cmdline.stream().filter(a -> a.startsWith(OWNER_MARKER))
                .findFirst().flatMap(a -> Owner.parse(a.substring(OWNER_MARKER.length())));
        if (owner.isEmpty() || owner.get().alive()) {
            return Optional.empty(); // a live harness owns it (maybe this one): leave it
        }
        LOG.warn("reaping process pid {} of run {} ({}) left by dead harness {}", pid, runId, pidFile.getFileName(),
                owner.get());
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

    /** The arguments of a process from {@code /proc/<pid>/cmdline}; empty if unreadable. */
    static List<String> cmdline(long pid) {
        try {
            byte[] raw = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline"));
            List<String> args = new ArrayList<>();
            int start = 0;
            for (int i = 0; i < raw.length; i++) {
                if (raw[i] == 0) {
                    args.add(new String(raw, start, i - start, StandardCharsets.UTF_8));
                    start = i + 1;
                }
            }
            if (start < raw.length) {
                args.add(new String(raw, start, raw.length - start, StandardCharsets.UTF_8));
            }
            return args;
        } catch (IOException e) {
            return List.of();
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
