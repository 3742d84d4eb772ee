package io.zkchaos.harness.cluster.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/** Sends a signal to a process with {@code kill -SIG pid} (Java has no SIGSTOP / SIGCONT of its own). */
final class Signals {

    private Signals() {
    }

    /**
     * Sends SIG{@code sig} ({@code STOP}, {@code CONT}, ...) to {@code pid}; {@code what} names it in errors.
     *
     * @throws IllegalStateException if {@code kill} fails (the process is gone) or hangs for 10 s
     */
    static void send(long pid, String sig, String what) {
        try {
            Process k = new ProcessBuilder("kill", "-" + sig, Long.toString(pid)).redirectErrorStream(true).start();
            String out = new String(k.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!k.waitFor(10, TimeUnit.SECONDS) || k.exitValue() != 0) {
                throw new IllegalStateException("kill -" + sig + " " + pid + " (" + what + ") failed: " + out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run kill -" + sig + " " + pid + " (" + what + ")", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted sending SIG" + sig + " to " + what, e);
        }
    }
}
