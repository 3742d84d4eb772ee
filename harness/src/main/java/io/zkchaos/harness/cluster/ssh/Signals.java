package io.zkchaos.harness.cluster.ssh;

import java.util.Map;

/** The exit code a shell gives a process that a signal ended: 128 plus the signal's number (SIGKILL: 137). */
final class Signals {

    private static final Map<String, Integer> NUMBERS = Map.of("HUP", 1, "INT", 2, "QUIT", 3, "ABRT", 6,
            "KILL", 9, "SEGV", 11, "PIPE", 13, "ALRM", 14, "TERM", 15);

    private Signals() {
    }

    /** 128 + the number of the signal SSH names ({@code KILL}, {@code TERM}); 128 for one it does not know. */
    static int exitCode(String signal) {
        return 128 + NUMBERS.getOrDefault(signal, 0);
    }
}
