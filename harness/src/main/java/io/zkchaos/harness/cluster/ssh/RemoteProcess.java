package io.zkchaos.harness.cluster.ssh;

import io.zkchaos.harness.process.ManagedProcess;
import io.zkchaos.harness.process.Signal;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.sshd.client.channel.ChannelExec;
import org.apache.sshd.client.channel.ClientChannelEvent;

/**
 * A process the harness owns on a host: a {@link ManagedProcess} over SSH. Each incarnation runs on an SSH channel of
 * its own: the shell prints its pid and {@code exec}s the command in its place, so the channel stays open exactly as
 * long as the process runs and ends with its exit status (or the signal that ended it). Its stdout and stderr are
 * appended to {@code <role>.log} in its directory, after a line naming the start; its command line carries the markers
 * ({@link RemoteMarkers}) that let a later harness end it if this one is killed.
 *
 * <p>Signals are sent with {@code kill} on the host ({@link Signal#command}). Thread-safe: every method but
 * {@link #awaitExit} is synchronized.
 */
final class RemoteProcess implements ManagedProcess {

    private final String name;
    private final HostSession host;
    private final String dir;
    private final String role;
    private final List<String> command;
    private ChannelExec channel;
    private long pid = -1;
    private Integer exitCode;
    private final ByteArrayOutputStream startErrors = new ByteArrayOutputStream();

    /**
     * @param dir     its directory on the host (absolute), where its log goes
     * @param command the full command line ({@code java} and its arguments)
     */
    RemoteProcess(String name, HostSession host, String dir, String role, List<String> command) {
        this.name = name;
        this.host = host;
        this.dir = dir;
        this.role = role;
        this.command = List.copyOf(command);
    }

    @Override
    public String name() {
        return name;
    }

    /** The log file on the host. */
    String logPath() {
        return dir + "/" + role + ".log";
    }

    /** The command line of every incarnation. */
    List<String> command() {
        return command;
    }

    @Override
    public synchronized void start() {
        if (alive()) {
            throw new IllegalStateException(name + " runs already on " + host.describe() + " (pid " + pid + ")");
        }
        String log = Shell.quote(role + ".log");
        String script = "cd " + Shell.quote(dir) + " && printf '== start %s\\n' \"$(date -u +%Y-%m-%dT%H:%M:%SZ)\" >> "
                + log + " && echo $$ && exec " + Shell.command(command) + " >> " + log + " 2>&1 < /dev/null";
        PidLine pidLine = new PidLine();
        synchronized (startErrors) {
            startErrors.reset();
        }
        try {
            channel = host.start(script, pidLine, startErrors);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot start " + name + " on " + host.describe() + ": "
                    + e.getMessage(), e);
        }
        try {
            pid = awaitPid(pidLine);
        } catch (RuntimeException e) {
            channel.close(true);
            channel = null;
            throw e;
        }
        exitCode = null;
    }

    /** The pid the shell printed; fails at once if the shell ended first (a directory or command missing). */
    private long awaitPid(PidLine pidLine) {
        long deadline = System.nanoTime() + HostSession.COMMAND_TIMEOUT.toNanos();
        while (true) {
            try {
                return pidLine.pid.get(100, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                if (channel.getExitStatus() != null || channel.isClosing()) {
                    throw new IllegalStateException("cannot start " + name + " on " + host.describe()
                            + ": its shell ended (exit " + channel.getExitStatus() + ")" + errors());
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("cannot start " + name + " on " + host.describe() + ": no pid "
                            + "within " + HostSession.COMMAND_TIMEOUT.toSeconds() + " s" + errors(), e);
                }
            } catch (ExecutionException e) {
                throw new IllegalStateException("cannot start " + name + " on " + host.describe() + ": "
                        + e.getCause().getMessage() + errors(), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted starting " + name, e);
            }
        }
    }

    private String errors() {
        synchronized (startErrors) {
            String e = startErrors.toString(StandardCharsets.UTF_8).strip();
            return e.isEmpty() ? "" : ": " + e;
        }
    }

    @Override
    public synchronized long pid() {
        return alive() ? pid : -1;
    }

    /** Whether the incarnation's channel is still open: its exit status or signal has not come. */
    @Override
    public synchronized boolean alive() {
        if (channel == null) {
            return false;
        }
        if (channel.getExitStatus() == null && channel.getExitSignal() == null && !channel.isClosing()) {
            return true;
        }
        if (exitCode == null) {
            Integer status = channel.getExitStatus();
            String signal = channel.getExitSignal();
            exitCode = status != null ? status : signal != null ? Signals.exitCode(signal) : -1;
            channel.close(false);
        }
        return false;
    }

    @Override
    public synchronized void signal(Signal signal) {
        if (!alive()) {
            signal.toEnded(name); // it ended meanwhile: gone, as KILL and TERM ask
            return;
        }
        HostSession.Result r = host.exec(Shell.command(signal.command(pid)));
        if (!r.ok() && alive()) {
            r.require(host, "SIG" + signal + " to " + name + " (pid " + pid + ")");
        }
    }

    /** Waits for the channel to end without holding this process's lock, so that {@link #alive()} answers meanwhile. */
    @Override
    public boolean awaitExit(Duration bound) throws InterruptedException {
        ChannelExec c;
        synchronized (this) {
            c = channel;
        }
        if (c != null) {
            c.waitFor(EnumSet.of(ClientChannelEvent.EXIT_STATUS, ClientChannelEvent.EXIT_SIGNAL,
                    ClientChannelEvent.CLOSED), bound);
        }
        if (Thread.interrupted()) {
            throw new InterruptedException("waiting for " + name + " to exit");
        }
        return !alive();
    }

    @Override
    public synchronized Integer exitCode() {
        alive();
        return exitCode;
    }

    /** The last lines of its log, read on the host. */
    @Override
    public String logTail(int lines) {
        try {
            HostSession.Result r = host.exec("tail -n " + lines + " " + Shell.quote(logPath()));
            return r.ok() ? r.out() : "(cannot read " + logPath() + " on " + host.describe() + ": " + r.err().strip()
                    + ")";
        } catch (RuntimeException e) {
            return "(cannot read " + logPath() + " on " + host.describe() + ": " + e.getMessage() + ")";
        }
    }

    /** Takes the first line the shell prints (its pid, which the command keeps); nothing else comes. */
    private static final class PidLine extends OutputStream {
        final CompletableFuture<Long> pid = new CompletableFuture<>();
        private final StringBuilder line = new StringBuilder();

        @Override
        public synchronized void write(int b) {
            if (pid.isDone()) {
                return;
            }
            if (b == '\n') {
                try {
                    pid.complete(Long.parseLong(line.toString().trim()));
                } catch (NumberFormatException e) {
                    pid.completeExceptionally(new IllegalStateException("not a pid: '" + line + "'"));
                }
            } else {
                line.append((char) b);
            }
        }
    }
}
