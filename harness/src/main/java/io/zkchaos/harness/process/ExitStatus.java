package io.zkchaos.harness.process;

import java.util.List;

/**
 * What an exit code says: a process that a signal ended exits, as a shell and the JDK report it, with 128 plus the
 * signal's number (SIGKILL: 137, SIGSEGV: 139, SIGABRT: 134).
 */
public final class ExitStatus {

    /** The exit code of a process SIGKILL ended. */
    public static final int KILLED = 128 + 9;

    /** Linux's signal names by number (index 0 unused), as {@code kill -l} prints them without {@code SIG}. */
    private static final List<String> NAMES = List.of("", "HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS", "FPE",
            "KILL", "USR1", "SEGV", "USR2", "PIPE", "ALRM", "TERM", "STKFLT", "CHLD", "CONT", "STOP", "TSTP", "TTIN",
            "TTOU", "URG", "XCPU", "XFSZ", "VTALRM", "PROF", "WINCH", "IO", "PWR", "SYS");

    private ExitStatus() {
    }

    /**
     * The name of the signal that ended a process with {@code exitCode} ({@code KILL}, {@code SEGV}), or null when
     * it exited by itself (a code up to 128, or past Linux's signals) or the code is unknown.
     */
    public static String signal(Integer exitCode) {
        if (exitCode == null || exitCode <= 128 || exitCode - 128 >= NAMES.size()) {
            return null;
        }
        return NAMES.get(exitCode - 128);
    }
}
