package io.zkchaos.harness.cluster.lazyfs;

import io.zkchaos.harness.process.ProcessMarkers;
import io.zkchaos.harness.process.Reaper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lazy file system's mounts as the kernel lists them, unmounting them, and sweeping the ones a killed harness
 * left.
 */
public final class Mounts {

    private static final Logger LOG = LoggerFactory.getLogger(Mounts.class);

    private Mounts() {
    }

    /**
     * Ends the lazy file system programs ({@code zkchaos-lazyfs}, see {@link LazyFsMount}) whose command line carries
     * a run marker accepted by {@code runs} and names a dead owner ({@link ProcessMarkers}), and unmounts their mount
     * points; then unmounts every lazy file system mount that no living program serves (its program was killed: every
     * access to it fails). Mounts of living owners are left alone. The local backend runs it with the {@link Reaper}
     * before a cluster starts.
     *
     * @return the programs that were ended (a dead mount detached without a program to end is logged only)
     */
    public static List<Reaper.Reaped> sweepOrphans(Predicate<String> runs) {
        List<Reaper.Reaped> reaped = new ArrayList<>();
        Set<Path> served = new HashSet<>();
        List<ProcessHandle> all;
        try (Stream<ProcessHandle> s = ProcessHandle.allProcesses()) {
            all = s.toList();
        }
        for (ProcessHandle p : all) {
            List<String> cmdline = ProcessMarkers.cmdline(p.pid());
            if (cmdline.size() < 3 || !Path.of(cmdline.get(0)).getFileName().toString()
                    .startsWith(LazyFs.PROGRAM)) {
                continue;
            }
            Path mountPoint = Path.of(cmdline.get(2));
            ProcessMarkers m = ProcessMarkers.in(cmdline);
            if (m.run().isEmpty() || !runs.test(m.run().get()) || !m.ownerDead()) {
                served.add(mountPoint);
                continue;
            }
            LOG.warn("sweeping lazy file system pid {} at {} of run {} left by dead harness {}", p.pid(),
                    mountPoint, m.run().get(), m.owner().get());
            p.destroy(); // SIGTERM: it unmounts itself
            try {
                p.onExit().get(5, TimeUnit.SECONDS);
            } catch (Exception e) {
                p.destroyForcibly();
            }
            unmountLazily(mountPoint);
            reaped.add(new Reaper.Reaped(p.pid(), m.run().get(), null));
        }
        for (Path m : lazyFsMounts()) {
            if (!served.contains(m)) {
                LOG.warn("detaching lazy file system mount {}: no program serves it", m);
                unmountLazily(m);
            }
        }
        return reaped;
    }

    /** Every mount point of type {@link LazyFs#FS_TYPE}, from {@code /proc/self/mountinfo}. */
    public static List<Path> lazyFsMounts() {
        List<Path> out = new ArrayList<>();
        List<String> lines;
        try {
            lines = Files.readAllLines(Path.of("/proc/self/mountinfo"), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return out;
        }
        for (String line : lines) {
            // id parent major:minor root mount-point options [optional fields] - fstype source super-options
            String[] f = line.split(" ");
            int dash = java.util.Arrays.asList(f).indexOf("-");
            if (f.length > 4 && dash > 0 && dash + 1 < f.length && f[dash + 1].equals(LazyFs.FS_TYPE)) {
                out.add(Path.of(unescape(f[4])));
            }
        }
        return out;
    }

    /** Whether {@code mountPoint} is a lazy file system mount now. */
    public static boolean mounted(Path mountPoint) {
        Path p = mountPoint.toAbsolutePath().normalize();
        return lazyFsMounts().contains(p);
    }

    /**
     * Detaches the mount at {@code mountPoint} at once, even when its program is gone or busy
     * ({@code fusermount3 -u -z}, else {@code umount -l}); a path that is not mounted is left alone.
     *
     * @return whether it is no longer mounted
     */
    public static boolean unmountLazily(Path mountPoint) {
        if (!mounted(mountPoint)) {
            return true;
        }
        LazyFs.Result r = LazyFs.exec(List.of("fusermount3", "-u", "-z", mountPoint.toString()));
        if (r.exit() != 0 && mounted(mountPoint)) {
            LazyFs.exec(List.of("umount", "-l", mountPoint.toString()));
        }
        return !mounted(mountPoint);
    }

    /** mountinfo escapes space, tab, newline and backslash as octal. */
    static String unescape(String s) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 3 < s.length()) {
                try {
                    b.append((char) Integer.parseInt(s.substring(i + 1, i + 4), 8));
                    i += 3;
                    continue;
                } catch (NumberFormatException e) {
                    // not an escape
                }
            }
            b.append(c);
        }
        return b.toString();
    }
}
