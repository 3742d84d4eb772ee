package io.zkchaos.harness.process;

import java.util.Optional;

/**
 * The harness process that started something, identified by pid and start time (pids are reused; the pair is not).
 * Written into the command line of every process it starts ({@link ProcessMarkers}) as
 * {@code -Dzkchaos.owner=<pid>@<startMillis>}, and onto every container and network of the Docker backend as a label.
 */
public record Owner(long pid, long startMillis) {

    public static Owner current() {
        ProcessHandle self = ProcessHandle.current();
        return of(self).orElseThrow(() -> new IllegalStateException("cannot read this JVM's own start time"));
    }

    static Optional<Owner> of(ProcessHandle p) {
        return p.info().startInstant().map(i -> new Owner(p.pid(), i.toEpochMilli()));
    }

    /** Parses {@code pid@startMillis}; empty when malformed. */
    public static Optional<Owner> parse(String s) {
        int at = s.indexOf('@');
        if (at <= 0) {
            return Optional.empty();
        }
        try {
            return Optional.of(new Owner(Long.parseLong(s.substring(0, at)), Long.parseLong(s.substring(at + 1))));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** Whether this very process (same pid and same start time, within a second) still runs. */
    public boolean alive() {
        return ProcessHandle.of(pid)
                .filter(ProcessHandle::isAlive)
                .flatMap(Owner::of)
                .map(o -> Math.abs(o.startMillis - startMillis) < 1000)
                .orElse(false);
    }

    @Override
    public String toString() {
        return pid + "@" + startMillis;
    }
}
