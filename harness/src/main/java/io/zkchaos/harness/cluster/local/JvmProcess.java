package io.zkchaos.harness.cluster.local;

import io.zkchaos.nemesis.NodeState;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * A JVM the harness starts and owns, and the signals the nemesis sends it: the reusable way to run a part of the
 * system (a client process, for one) in a process of its own.
 *
 * <p>Its command line carries the markers the {@link Reaper} checks — {@code -Dzkchaos.run=<run id>},
 * {@code -Dzkchaos.owner=<harness pid>@<start>} and {@code -Dzkchaos.process=<role>} — and its pid is in a pid file
 * in its directory while it lives, so a harness killed with SIGKILL leaves nothing the next start cannot end. Every
 * incarnation appends its stderr (and, unless its stdout is {@linkplain Builder#piped() piped} to the harness, its
 * stdout) to one log file.
 *
 * <p>Thread-safe: every method is synchronized, so signals to one process are applied one at a time.
 */
public final class JvmProcess {

    /** The command-line marker naming what the process is ({@code client}, ...). */
    public static final String ROLE_MARKER = "-Dzkchaos.process=";

    private final String name;
    private final Path dir;
    private final List<String> command;
    private final String runId;
    private final String pidFileName;
    private final String logFileName;
    private final boolean piped;
    private Process process;
    private NodeState state = NodeState.DOWN;
    private Integer lastExitCode;

    private JvmProcess(Builder b) {
        this.name = b.name;
        this.dir = b.dir;
        this.runId = b.runId;
        this.pidFileName = b.pidFileName;
        this.logFileName = b.logFileName;
        this.piped = b.piped;
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add(Reaper.RUN_MARKER + b.runId);
        cmd.add(Reaper.OWNER_MARKER + Owner.current());
        cmd.add(ROLE_MARKER + b.role);
        cmd.addAll(b.jvmOptions);
        // nothing outside its directory: no hsperfdata in /tmp, temp files in tmp/
        cmd.add("-XX:-UsePerfData");
        cmd.add("-Djava.io.tmpdir=" + dir.resolve("tmp"));
        cmd.add("-cp");
        cmd.add(b.classpath);
        cmd.add(b.mainClass);
        cmd.addAll(b.args);
        this.command = List.copyOf(cmd);
    }

    /** A process named {@code name} living in {@code dir}. */
    public static Builder builder(String name, Path dir) {
        return new Builder(name, dir);
    }

    public String name() {
        return name;
    }

    /** The full command line. */
    public List<String> command() {
        return command;
    }

    public Path logFile() {
        return dir.resolve(logFileName);
    }

    public Path pidFile() {
        return dir.resolve(pidFileName);
    }

    /** The current pid, or -1 when down. */
    public synchronized long pid() {
        refresh();
        return process == null ? -1 : process.pid();
    }

    /** What the harness did to the process last (DOWN once it ended by itself). */
    public synchronized NodeState state() {
        refresh();
        return state;
    }

    /** Exit code of the last incarnation that ended, or null. */
    public synchronized Integer lastExitCode() {
        refresh();
        return lastExitCode;
    }

    /**
     * Starts the process if it is down, and returns it (with {@link Builder#piped()}, its stdin and stdout are the
     * harness's pipes to it).
     *
     * @throws UncheckedIOException naming the command when it cannot be started
     */
    public synchronized Process start() {
        refresh();
        if (state != NodeState.DOWN) {
            return process;
        }
        try {
            Files.createDirectories(dir.resolve("tmp"));
            Files.writeString(logFile(), "==== zkchaos: starting " + name + " at " + Instant.now() + "\n",
                    StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
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
        state = NodeState.RUNNING;
        lastExitCode = null;
        return process;
    }

    /** SIGKILL (it ends a paused process too), then waits until the process is gone; no-op if it is down. */
    public synchronized void kill() {
        refresh();
        if (state == NodeState.DOWN) {
            return;
        }
        process.destroyForcibly();
        awaitExit(10);
    }

    /** SIGSTOP a running process; no-op otherwise. */
    public synchronized void pause() {
        refresh();
        if (state != NodeState.RUNNING) {
            return;
        }
        Signals.send(process.pid(), "STOP", name);
        state = NodeState.PAUSED;
    }

    /** SIGCONT a paused process; no-op otherwise. */
    public synchronized void resume() {
        refresh();
        if (state != NodeState.PAUSED) {
            return;
        }
        Signals.send(process.pid(), "CONT", name);
        state = NodeState.RUNNING;
    }

    /** The last {@code lines} lines of the log, for error messages. */
    public String logTail(int lines) {
        return LogTail.of(logFile(), lines);
    }

    private void awaitExit(int seconds) {
        try {
            if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
                throw new IllegalStateException(name + " (pid " + process.pid() + ") still alive " + seconds
                        + " s after SIGKILL");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for " + name + " to exit", e);
        }
        refresh();
    }

    /** Notices a process that ended (by itself, or the kill above); its pid file goes with it. */
    private void refresh() {
        if (process != null && !process.isAlive()) {
            lastExitCode = process.exitValue();
            process = null;
            state = NodeState.DOWN;
            Reaper.deleteQuietly(pidFile());
        }
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
        private String pidFileName;
        private String logFileName;
        private boolean piped;

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

        /** Its stdin and stdout are pipes to the harness ({@link JvmProcess#start()} returns them); stderr logs. */
        public Builder piped() {
            piped = true;
            return this;
        }

        /** @throws IllegalArgumentException naming the missing field */
        public JvmProcess build() {
            if (role == null || role.isBlank() || !role.matches("[a-z][a-z0-9-]*")) {
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
            pidFileName = role + ".pid";
            logFileName = role + ".log";
            return new JvmProcess(this);
        }
    }
}
