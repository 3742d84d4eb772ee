package io.zkchaos.harness.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The markers on the command line of every process the harness starts, and reading them back: the one format the
 * {@link Reaper}, the lazy file system's sweep and {@code .ci/check-leftovers} rely on to tell a process of a dead
 * harness from anything else on the machine.
 *
 * <ul>
 *   <li>{@value #RUN}{@code <run id>}: the run it belongs to (also the second line of its pid file);</li>
 *   <li>{@value #OWNER}{@code <pid>@<startMillis>}: the harness that started it ({@link Owner});</li>
 *   <li>{@value #ROLE}{@code <role>}: what it is ({@code server}, {@code client}); every {@link JvmProcess} has one.</li>
 * </ul>
 *
 * @param run   the run marker's value, if present
 * @param owner the owner marker's value, if present and well formed
 * @param role  the role marker's value, if present
 */
public record ProcessMarkers(Optional<String> run, Optional<Owner> owner, Optional<String> role) {

    /** The command-line marker naming a process's run. */
    public static final String RUN = "-Dzkchaos.run=";
    /** The command-line marker naming the harness that started a process. */
    public static final String OWNER = "-Dzkchaos.owner=";
    /** The command-line marker naming what a {@link JvmProcess} is ({@code server}, {@code client}, ...). */
    public static final String ROLE = "-Dzkchaos.process=";

    /**
     * Starts a run in {@code runDirectory}: creates it, picks the run id its processes (and containers) are marked
     * with ({@code <directory name>-<8 hex digits>}), and writes {@code run.properties} naming the run, this harness
     * as its owner, and {@code facts}, one {@code key=value} a line (for people reading the directory).
     *
     * @return the run id
     * @throws UncheckedIOException naming the directory when it cannot be written
     */
    public static String newRun(Path runDirectory, String... facts) {
        String runId = runDirectory.getFileName() + "-" + UUID.randomUUID().toString().substring(0, 8);
        StringBuilder props = new StringBuilder("run=" + runId + "\nowner=" + Owner.current() + "\n");
        for (String fact : facts) {
            props.append(fact).append('\n');
        }
        try {
            Files.createDirectories(runDirectory);
            Files.writeString(runDirectory.resolve("run.properties"), props, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create run directory " + runDirectory, e);
        }
        return runId;
    }

    /** The run and owner markers for a process of {@code runId} that this harness starts. */
    public static List<String> arguments(String runId) {
        return List.of(RUN + runId, OWNER + Owner.current());
    }

    /** The markers on {@code cmdline} (each empty where absent). */
    public static ProcessMarkers in(List<String> cmdline) {
        return new ProcessMarkers(value(cmdline, RUN), value(cmdline, OWNER).flatMap(Owner::parse),
                value(cmdline, ROLE));
    }

    /** The markers of the process {@code pid} of this machine (all empty if it is gone or unreadable). */
    public static ProcessMarkers of(long pid) {
        return in(cmdline(pid));
    }

    /**
     * Whether the owner it names is provably gone: its owner marker is well formed and that harness no longer runs.
     * A process without one is never an orphan (nothing proves the harness started it).
     */
    public boolean ownerDead() {
        return owner.isPresent() && !owner.get().alive();
    }

    private static Optional<String> value(List<String> cmdline, String marker) {
        return cmdline.stream().filter(a -> a.startsWith(marker)).map(a -> a.substring(marker.length()))
                .findFirst();
    }

    /** The arguments of a process from {@code /proc/<pid>/cmdline}; empty if unreadable. */
    public static List<String> cmdline(long pid) {
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
}
