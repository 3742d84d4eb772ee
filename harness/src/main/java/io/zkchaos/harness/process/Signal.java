package io.zkchaos.harness.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The signals the harness sends the processes it owns: the nemesis's kill, pause and resume, and a clean stop. */
public enum Signal {
    /** Ends the process at once; a stopped process too. */
    KILL,
    /** Asks the process to end (its shutdown hooks run). */
    TERM,
    /** Freezes the process (it cannot notice). */
    STOP,
    /** Thaws a frozen process. */
    CONT;

    /** The command that sends this signal to {@code pid}: {@code kill -STOP <pid>}, wherever the process runs. */
    public List<String> command(long pid) {
        return List.of("kill", "-" + name(), Long.toString(pid));
    }

    /**
     * For a process that is not running: this signal has nothing left to do when it asks the process to end
     * ({@link #KILL}, {@link #TERM}: it is gone, as asked); what every {@link ManagedProcess#signal} does then.
     *
     * @param what names the process in the error
     * @throws IllegalStateException for {@link #STOP} and {@link #CONT}: there is nothing to stop or continue
     */
    public void toEnded(String what) {
        if (this != KILL && this != TERM) {
            throw new IllegalStateException("cannot send SIG" + this + " to " + what + ": it is not running");
        }
    }

    /**
     * Sends this signal to {@code pid} on this machine with {@link #command} (Java has no SIGSTOP / SIGCONT of its
     * own); {@code what} names the process in errors.
     *
     * @throws IllegalStateException if {@code kill} fails (the process is gone) or hangs for 10 s
     */
    public void send(long pid, String what) {
        try {
            Process k = new ProcessBuilder(command(pid)).redirectErrorStream(true).start();
            String out = new String(k.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!k.waitFor(10, TimeUnit.SECONDS) || k.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command(pid)) + " (" + what + ") failed: " + out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + String.join(" ", command(pid)) + " (" + what + ")", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted sending SIG" + name() + " to " + what, e);
        }
    }
}
