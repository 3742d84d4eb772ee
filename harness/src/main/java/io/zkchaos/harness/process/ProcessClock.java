package io.zkchaos.harness.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A process's movable wall clock: libfaketime preloaded into its JVM, reading its offset from a control file in the
 * process's directory ({@code clock}), which {@link #setAll} rewrites while the process runs. The servers of the local
 * backend and the client processes of a run get one when a clock fault may move them; the file outlives the process,
 * so a process started again in the same directory (a restarted server, a replaced client) runs on the same clock, as
 * on the same machine.
 *
 * <p>Why libfaketime and not a Java agent: it moves the clock under the whole process (the JDK's
 * {@code System.currentTimeMillis}, {@code Instant.now}, {@code new Date()}, the log's timestamps, native code), as
 * {@code settimeofday} moves a machine's, without knowing the server's classes; an agent would have to rewrite the
 * JDK's native clock methods or the server's own time helper. What it takes, measured on JDK 17:
 * <ul>
 *   <li>{@code FAKETIME_DONT_FAKE_MONOTONIC=1}: only {@code CLOCK_REALTIME} moves, {@code CLOCK_MONOTONIC}
 *       ({@code System.nanoTime}, every JVM timed wait) runs on, as on a machine whose time is set; faking it
 *       hangs JVMs (libfaketime's README says so);</li>
 *   <li>{@code FAKETIME_FORCE_MONOTONIC_FIX=0}: the fix, on by default with glibc, made a JVM's timed waits return
 *       early and spin ({@code Object.wait(4000)} returned after about 2 s, at 5 times the CPU of a plain JVM); off,
 *       the waits last as long as asked and cost what they cost without the library;</li>
 *   <li>the single-threaded build {@code libfaketime.so.1}: the {@code MT} build hung a JVM that reads the clock in
 *       a loop;</li>
 *   <li>{@code FAKETIME_CACHE_DURATION=1}: the library reads the control file again once its cache (whole seconds)
 *       is older than a second, so a change takes effect within {@link #APPLIED_WITHIN}; without a cache
 *       ({@code FAKETIME_NO_CACHE}) every wall-clock read opens the file (about 0.2 ms a call, measured).</li>
 * </ul>
 */
public final class ProcessClock {

    /** A change of the control file is seen by the process within this (the library's cache, in whole seconds). */
    public static final Duration APPLIED_WITHIN = Libfaketime.APPLIED_WITHIN;
    /** Set to the library's path to use another build or place. */
    public static final String LIBRARY_PROPERTY = "zkchaos.libfaketime";

    private static final List<String> DIRECTORIES = Libfaketime.DIRECTORIES;

    private final Path control;

    private ProcessClock(Path control) {
        this.control = control;
    }

    /** The preload library, if this machine has it. */
    public static Optional<Path> library() {
        String set = System.getProperty(LIBRARY_PROPERTY);
        Stream<Path> candidates = set != null ? Stream.of(Path.of(set))
                : Libfaketime.candidates().stream().map(Path::of);
        return candidates.filter(Files::isReadable).findFirst();
    }

    /**
     * The clock of the process living in {@code directory}, on the true time until {@link #setAll}.
     *
     * @param whose what the clock belongs to, for the error ({@code the servers'})
     * @throws IllegalStateException when libfaketime is not installed, saying how to install it
     */
    public static ProcessClock in(Path directory, String whose) {
        library().orElseThrow(() -> new IllegalStateException(missing(whose)));
        ProcessClock clock = new ProcessClock(directory.resolve(Libfaketime.CONTROL_FILE));
        if (!Files.exists(clock.control)) {
            clock.write(Duration.ZERO);
        }
        return clock;
    }

    /**
     * Where the library was looked for, for a refusal: {@code not found at /x (-Dzkchaos.libfaketime)} when the
     * property names it, else the directories looked in and how to install it.
     */
    public static String notFound() {
        String set = System.getProperty(LIBRARY_PROPERTY);
        return set != null ? "not found at " + set + ", which -D" + LIBRARY_PROPERTY + " names"
                : "not found in " + String.join(", ", DIRECTORIES) + "; apt-get install libfaketime, or -D"
                + LIBRARY_PROPERTY + "=PATH";
    }

    /** Why {@code whose} clocks cannot move without the library, and how to install it. */
    public static String missing(String whose) {
        return "clocks: cannot move " + whose + " clocks: libfaketime is not installed (apt-get install libfaketime; "
                + "looked in " + DIRECTORIES + ", or set -D" + LIBRARY_PROPERTY + "=PATH)";
    }

    /** The environment the process starts with: the library preloaded, reading {@link #control}. */
    public Map<String, String> environment() {
        return Libfaketime.environment(library().orElseThrow().toString(), control.toString());
    }

    /**
     * Sets each clock to the true time plus its offset ({@link Duration#ZERO}: the true time): writes every control
     * file first, then waits once ({@code awaitApplied}, {@link #awaitApplied} in a run) until every running process
     * has read its own, so that setting N clocks takes one wait, not N. A process started later reads its file at
     * once. Nothing to set, nothing to wait for.
     */
    public static void setAll(Map<ProcessClock, Duration> offsets, Runnable awaitApplied) {
        if (offsets.isEmpty()) {
            return;
        }
        offsets.forEach((clock, offset) -> clock.write(offset));
        awaitApplied.run();
    }

    /**
     * Waits {@link #APPLIED_WITHIN}: by then a running process has read a control file written before (the library
     * keeps no sign of having read it, so the wait is its cache's bound). An interrupt ends it early, flag kept.
     */
    public static void awaitApplied() {
        Libfaketime.awaitApplied();
    }

    /** The control file (for diagnostics and tests). */
    public Path control() {
        return control;
    }

    /** Written whole and moved into place, so that the library never reads half a line. */
    private void write(Duration offset) {
        Path tmp = control.resolveSibling(control.getFileName() + ".tmp");
        try {
            Files.writeString(tmp, Libfaketime.controlLine(offset), StandardCharsets.UTF_8);
            try {
                Files.move(tmp, control, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, control, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the clock control file " + control, e);
        }
    }
}
