package io.zkchaos.harness.process;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * A JVM on this machine that the harness starts and owns: a ZooKeeper server, an fle node, a client process. It lives
 * in a directory of its own, and a harness killed with SIGKILL leaves nothing the next start cannot end:
 *
 * <ul>
 *   <li>its command line carries the {@link ProcessMarkers} (run, owner, role) the {@link Reaper} checks;</li>
 *   <li>while an incarnation runs, its pid and run are in {@code <role>.pid} in its directory;</li>
 *   <li>every incarnation appends its stderr (and, unless its stdout is {@linkplain Builder#piped() piped} to the
 *       harness, its stdout) to {@code <role>.log}, after a line naming the start;</li>
 *   <li>nothing is written outside its directory (no hsperfdata in /tmp, temp files in {@code tmp/}).</li>
 * </ul>
 *
 * <p>Node faults on it go through a {@link ProcessControl}. Thread-safe: every method is synchronized.
 */
public final class JvmProcess implements ManagedProcess {

    /** The extension of a pid file: {@code <role>.pid}, the files the {@link Reaper} reads. */
    public static final String PID_SUFFIX = ".pid";

    private final String name;
    private final Path dir;
    private final List<String> command;
    private final String runId;
    private final String role;
    private final boolean piped;
    private final Map<String, String> environment;
    private Process process;
    private Integer exitCode;

    private JvmProcess(Builder b) {
        this.name = b.name;
        this.dir = b.dir;
        this.runId = b.runId;
        this.role = b.role;
        this.piped = b.piped;
        this.environment = b.environment;
        this.command = commandLine(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                ProcessMarkers.arguments(b.runId), b.role, b.jvmOptions, dir, b.classpath, b.mainClass, b.args);
    }

    /**
     * The command line of a JVM the harness owns, wherever it runs: {@code java}, the {@code markers} (run and owner:
     * {@link ProcessMarkers#arguments}), the role marker, the JVM options, then what keeps every file in {@code dir}
     * (no hsperfdata in /tmp, temporary files in {@code dir/tmp}), the class path, the main class and its arguments.
     */
    public static List<String> commandLine(String java, List<String> markers, String role, List<String> jvmOptions,
                                           Path dir, String classpath, String mainClass, List<String> args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        cmd.addAll(markers);
        cmd.add(ProcessMarkers.ROLE + role);
        cmd.addAll(jvmOptions);
        cmd.add("-XX:-UsePerfData");
        cmd.add("-Djava.io.tmpdir=" + dir.resolve("tmp"));
        cmd.add("-cp");
        cmd.add(classpath);
        cmd.add(mainClass);
        cmd.addAll(args);
        return List.copyOf(cmd);
    }

    /** A process named {@code name} living in {@code dir}. */
    public static Builder builder(String name, Path dir) {
        return new Builder(name, dir);
    }

    @Override
    public String name() {
        return name;
    }

    /** The full command line. */
    public List<String> command() {
        return command;
    }

    public Path logFile() {
        return dir.resolve(role + ".log");
    }

    public Path pidFile() {
        return dir.resolve(role + PID_SUFFIX);
    }

    /**
     * Starts a new incarnation (called only when none runs): the log gets a line naming the start, the pid file
     * the new pid.
     */
    @Override
    public synchronized void start() {
        if (alive()) {
            throw new IllegalStateException(name + " runs already (pid " + process.pid() + ")");
        }
        try {
            Files.createDirectories(dir.resolve("tmp"));
            Files.writeString(logFile(), "==== zkchaos: starting " + name + " at " + Instant.now() + "\n",
                    StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
            pb.environment().putAll(environment);
            if (piped) {
                pb.redirectError(ProcessBuilder.Redirect.appendTo(logFile().toFile()));
            } else {
                pb.redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile().toFile()))
                        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            }
            process = pb.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name + ": " + String.join(" ", command), e);
        }
        Reaper.writePidFile(pidFile(), process.pid(), runId);
        exitCode = null;
    }

    /**
     * The incarnation started last, also once it has ended: with {@link Builder#piped()}, its stdin and stdout are
     * the harness's pipes to it.
     *
     * @throws IllegalStateException if it was never started
     */
    public synchronized Process process() {
        if (process == null) {
            throw new IllegalStateException(name + " was never started");
        }
        return process;
    }

    @Override
    public synchronized long pid() {
        return alive() ? process.pid() : -1;
    }

    @Override
    public synchronized boolean alive() {
        if (process == null) {
            return false;
        }
        if (process.isAlive()) {
            return true;
        }
        if (exitCode == null) {
            exitCode = process.exitValue();
            Reaper.deleteQuietly(pidFile());
        }
        return false;
    }

    /** SIGKILL and SIGTERM through the JDK, SIGSTOP and SIGCONT with {@code kill}. */
    @Override
    public synchronized void signal(Signal signal) {
        if (!alive()) {
            signal.toEnded(name); // it ended meanwhile: gone, as KILL and TERM ask
            return;
        }
        switch (signal) {
            case KILL -> process.destroyForcibly();
            case TERM -> process.destroy();
            default -> signal.send(process.pid(), name);
        }
    }

    /** Waits without holding this process's lock, so that {@link #alive()} answers meanwhile. */
    @Override
    public boolean awaitExit(Duration bound) throws InterruptedException {
        Process p;
        synchronized (this) {
            p = process;
        }
        return p == null || p.waitFor(bound.toMillis(), TimeUnit.MILLISECONDS) && !alive();
    }

    @Override
    public synchronized Integer exitCode() {
        alive();
        return exitCode;
    }

    @Override
    public String logTail(int lines) {
        return LogTail.of(logFile(), lines);
    }

    /** What to run and where; {@link #build()} validates. */
    public static final class Builder {
        private final String name;
        private final Path dir;
        private String role;
        private String runId;
        private String classpath = System.getProperty("java.class.path");
        private String mainClass;
        private List<String> jvmOptions = List.of();
        private List<String> args = List.of();
        private boolean piped;
        private Map<String, String> environment = Map.of();

        private Builder(String name, Path dir) {
            this.name = Objects.requireNonNull(name, "name");
            this.dir = Objects.requireNonNull(dir, "dir");
        }

        /** What it is, for the role marker and its file names ({@code client}: client.pid, client.log). */
        public Builder role(String v) {
            role = v;
            return this;
        }

        /** The run whose marker it carries. */
        public Builder runId(String v) {
            runId = v;
            return this;
        }

        /** Defaults to this JVM's own class path. */
        public Builder classpath(String v) {
            classpath = v;
            return this;
        }

        public Builder mainClass(String v) {
            mainClass = v;
            return this;
        }

        public Builder jvmOptions(List<String> v) {
            jvmOptions = List.copyOf(v);
            return this;
        }

        public Builder args(List<String> v) {
            args = List.copyOf(v);
            return this;
        }

        /** Variables added to the harness's environment for the process (e.g. a library to preload). */
        public Builder environment(Map<String, String> v) {
            environment = Map.copyOf(v);
            return this;
        }

        /** Its stdin and stdout are pipes to the harness ({@link JvmProcess#process()}); stderr logs. */
        public Builder piped() {
            piped = true;
            return this;
        }

        /** @throws IllegalArgumentException naming the missing field */
        public JvmProcess build() {
            if (role == null || !role.matches("[a-z][a-z0-9-]*")) {
                throw new IllegalArgumentException("role must be a lower-case word, got " + role);
            }
            if (runId == null || runId.isBlank()) {
                throw new IllegalArgumentException("runId must be set");
            }
            if (mainClass == null || mainClass.isBlank()) {
                throw new IllegalArgumentException("mainClass must be set");
            }
            if (classpath == null || classpath.isBlank()) {
                throw new IllegalArgumentException("classpath must be set");
            }
            return new JvmProcess(this);
        }
    }
}
