package io.zkchaos.harness.cluster.local;

import io.zkchaos.nemesis.NodeState;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One ZooKeeper server JVM ({@code QuorumPeerMain}) of a local ensemble, and the signals sent to it. Every
 * incarnation of the process appends to the same log file and records its pid in the node's pid file while it
 * lives. The process carries the run and owner markers the {@link Reaper} checks.
 *
 * <p>Thread-safe: every method is synchronized, so faults on one node are applied one at a time.
 */
final class ServerProcess {

    private final String name;
    private final Path dir;
    private final List<String> command;
    private final String runId;
    private Process process;
    private NodeState state = NodeState.DOWN;
    private Integer lastExitCode;
    /** Set when the cluster closes: a start that comes later (a nemesis still running) must not spawn a server. */
    private boolean retired;

    /**
     * @param name    node name, e.g. {@code n1}
     * @param dir     the node's directory, holding {@code zoo.cfg}, {@code data/}, the log and the pid file
     * @param command the full command line (java, options with markers, main class, config path)
     * @param runId   the run id written into the pid file
     */
    ServerProcess(String name, Path dir, List<String> command, String runId) {
        this.name = name;
        this.dir = dir;
        this.command = List.copyOf(command);
        this.runId = runId;
    }

    String name() {
        return name;
    }

    Path logFile() {
        return dir.resolve("server.log");
    }

    Path pidFile() {
        return dir.resolve(Reaper.PID_FILE);
    }

    /** The current pid, or -1 when down. */
    synchronized long pid() {
        refresh();
        return process == null ? -1 : process.pid();
    }

    synchronized NodeState state() {
        refresh();
        return state;
    }

    /** Exit code of the last incarnation that ended, or null. */
    synchronized Integer lastExitCode() {
        refresh();
        return lastExitCode;
    }

    /** Starts the process if it is down. */
    synchronized void start() {
        if (retired) {
            throw new IllegalStateException("cannot start " + name + ": its cluster is closed");
        }
        refresh();
        if (state != NodeState.DOWN) {
            return;
        }
        try {
            Files.createDirectories(dir.resolve("tmp"));
            Files.writeString(logFile(), "==== zkchaos: starting " + name + " at " + Instant.now() + "\n",
                    StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            ProcessBuilder pb = new ProcessBuilder(command)
                    .directory(dir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile().toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            process = pb.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name + ": " + String.join(" ", command), e);
        }
        Reaper.writePidFile(pidFile(), process.pid(), runId);
        state = NodeState.RUNNING;
        lastExitCode = null;
    }

    /** SIGKILL, then waits until the process is gone. */
    synchronized void kill() {
        refresh();
        if (state == NodeState.DOWN) {
            return;
        }
        process.destroyForcibly(); // SIGKILL on Linux; ends a paused process too
        awaitExit(10);
    }

    /**
     * Kills the process for good: a {@link #start()} after this fails. Called when the cluster closes; a start in
     * progress (say, a nemesis restarting the node while a shutdown hook closes the cluster) finishes first and
     * its process is killed with the rest.
     */
    synchronized void retire() {
        retired = true;
        kill();
    }

    /** SIGTERM (after SIGCONT if paused), SIGKILL if it has not ended within 10 s. */
    synchronized void stop() {
        refresh();
        if (state == NodeState.DOWN) {
            return;
        }
        if (state == NodeState.PAUSED) {
            signal("CONT");
        }
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        awaitExit(10);
    }

    /** SIGSTOP a running process. */
    synchronized void pause() {
        refresh();
        if (state != NodeState.RUNNING) {
            return;
        }
        signal("STOP");
        state = NodeState.PAUSED;
    }

    /** SIGCONT a paused process. */
    synchronized void resume() {
        refresh();
        if (state != NodeState.PAUSED) {
            return;
        }
        signal("CONT");
        state = NodeState.RUNNING;
    }

    /** The last {@code lines} lines of the node's log, for error messages. */
    String logTail(int lines) {
        return LogTail.of(logFile(), lines);
    }

    private void signal(String sig) {
        Signals.send(process.pid(), sig, name);
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

    /** Notices a process that ended on its own (crash, or the kill above). */
    private void refresh() {
        if (process != null && !process.isAlive()) {
            lastExitCode = process.exitValue();
            process = null;
            state = NodeState.DOWN;
            Reaper.deleteQuietly(pidFile());
        }
    }

    /** The command line of this process, for diagnostics. */
    List<String> command() {
        return new ArrayList<>(command);
    }
}
