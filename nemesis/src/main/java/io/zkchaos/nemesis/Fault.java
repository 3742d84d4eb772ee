package io.zkchaos.nemesis;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;

/**
 * One kind of fault, by the name the CLI takes: how to start it and how to stop (heal) it. Both act on the system
 * only through the {@link NemesisTarget} and answer with what they really did, as data for the history.
 *
 * <p>To add a fault: implement this (usually with {@link #of}), add it to {@link Faults}; it is then a nemesis of
 * its own and part of {@code mixed}.
 */
public interface Fault {

    /**
     * What a fault is like, as data: what it needs of a run and what the clients may expect while it holds. The
     * run's checks and its evidence rules read these, never the fault's name.
     */
    enum Trait {
        /** Acts on client processes ({@link NemesisTarget#clients()}): only when clients run as processes. */
        ON_CLIENTS,
        /**
         * Aims at the client process that holds leadership (the workload's elected client): under a workload whose
         * clients elect none, every start finds nothing to act on.
         */
        ON_LEADING_CLIENT,
        /**
         * Acts on the servers' disks — drops or tears what they had not fsynced, or makes them fail for a window: needs
         * the lazy file system under every server.
         */
        NEEDS_LAZYFS,
        /**
         * Acts at a moment of the quorum protocol through frame triggers, which may be armed and never fire: such a
         * fault happened only if a trigger fired.
         */
        AT_PROTOCOL_MOMENT,
        /**
         * While it holds, the system is not expected to serve the clients: a majority or every server down, every
         * client link cut, or a partition in which no majority hears itself both ways (a majorities ring of three
         * nodes cuts every pair in one direction). No operation need be acknowledged then.
         */
        NO_SERVICE,
        /**
         * Holds the data of links back (latency with jitter): needs links that can delay, which a proxy's can and a
         * host's firewall cannot (a host's kernel does it with {@code tc netem}, where it has it).
         */
        DELAYS_LINKS,
        /**
         * Moves the servers' wall clocks ({@link ClockControl#setClockOffset}): needs a backend that can, and the
         * servers started so that it can (the local and ssh backends preload libfaketime into them).
         */
        MOVES_CLOCKS,
        /**
         * Moves the client processes' wall clocks ({@link ClientControl#setClockOffsets}): they must start so that it
         * can (the harness preloads libfaketime into them, on its own machine whatever the backend).
         */
        MOVES_CLIENT_CLOCKS,
        /**
         * Empties a server's data directory ({@link DataReplacement#replaceDisk}): needs a backend that reaches the
         * servers' data directories between a kill and a start.
         */
        EMPTIES_DATA
    }

    /**
     * What a fault acts on, and so what its stop undoes: every stop undoes all of its family's kind of harm at once
     * (a heal heals every link, {@code restartDown} starts every node that is down), so two faults of one family
     * never hold at once, while faults of different families may ({@code --compose}).
     */
    enum Family {
        /** Links: partitions, client links, toxics; undone by healing every link. */
        NETWORK,
        /** Processes killed (and restarted) on their data, at moments of the protocol too; undone by starting every node that is down. */
        CRASH,
        /** Processes stopped (SIGSTOP); undone by resuming every paused node. */
        PAUSE,
        /** Wall clocks moved; undone by resetting every moved clock. */
        CLOCK,
        /**
         * Disks failing (EIO, full, slow) under running servers; undone by repairing every failing disk (and starting
         * a server the failure made exit).
         */
        DISK,
        /**
         * Client processes paused, killed or their wall clocks moved; undone by resuming every paused client or
         * resetting every moved client clock (its faults never hold together, so each stop undoes its own kind).
         */
        CLIENT;

        /** The name people read: {@code network}, {@code crash} ... */
        public String cliName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        /**
         * The family of that {@link #cliName} ({@code clock}), as {@code --without} takes it.
         *
         * @throws IllegalArgumentException naming the unknown family and listing the known ones
         */
        public static Family parse(String name) {
            for (Family f : values()) {
                if (f.cliName().equals(name == null ? null : name.trim().toLowerCase(java.util.Locale.ROOT))) {
                    return f;
                }
            }
            throw new IllegalArgumentException("unknown fault family '" + name + "'; known: " + String.join(", ",
                    java.util.Arrays.stream(values()).map(Family::cliName).toList()));
        }
    }

    /** The name the CLI and the history use, e.g. {@code kill-leader}. */
    String name();

    /** One line for people: what starting it does and what stopping it undoes. */
    String description();

    /** What it acts on, and so what its stop undoes ({@link Family}). */
    Family family();

    /**
     * Starts the fault.
     *
     * @throws IllegalStateException when it cannot act now (no leader to aim at); the driver records the reason
     */
    FaultRecord start(NemesisTarget target);

    /** Stops the fault: undoes what {@link #start} did. */
    FaultRecord stop(NemesisTarget target);

    /** What it is like ({@link Trait}); none by default. */
    default Set<Trait> traits() {
        return Set.of();
    }

    /** Whether it has {@code trait}. */
    default boolean is(Trait trait) {
        return traits().contains(trait);
    }

    /**
     * Whether this fault can act on a system of {@code nodes} nodes: a partition needs at least 3; a fault on client
     * processes acts on any number.
     */
    default boolean supports(int nodes) {
        return nodes >= (is(Trait.ON_CLIENTS) ? 1 : 3);
    }

    /**
     * Whether this fault acts on client processes: it can run only when clients run in processes of their own, and
     * a nemesis that mixes faults leaves it out otherwise.
     */
    default boolean needsClientProcesses() {
        return is(Trait.ON_CLIENTS);
    }

    /**
     * The shortest time this fault must be held to do what it is for, given the clients' session timeout (a client
     * partition must outlast it for sessions to expire); zero for most faults.
     */
    default Duration holdAtLeast(Duration sessionTimeout) {
        return Duration.ZERO;
    }

    /** What a fault does, as a function of the target. */
    @FunctionalInterface
    interface Action {
        FaultRecord apply(NemesisTarget target);
    }

    /** A fault from its parts. */
    static Fault of(String name, String description, Family family, Action start, Action stop, Trait... traits) {
        return of(name, description, family, start, stop, 0, traits);
    }

    /**
     * A fault from its parts that must be held at least {@code sessionTimeouts} times the clients' session timeout
     * (see {@link #holdAtLeast}).
     */
    static Fault of(String name, String description, Family family, Action start, Action stop,
                    double sessionTimeouts, Trait... traits) {
        record Simple(String name, String description, Family family, Action startAction, Action stopAction,
                      double timeouts, Set<Trait> traits) implements Fault {
            @Override
            public Duration holdAtLeast(Duration sessionTimeout) {
                return Duration.ofNanos((long) (sessionTimeout.toNanos() * timeouts));
            }

            @Override
            public FaultRecord start(NemesisTarget target) {
                return startAction.apply(target);
            }

            @Override
            public FaultRecord stop(NemesisTarget target) {
                return stopAction.apply(target);
            }

            @Override
            public String toString() {
                return name;
            }
        }
        Set<Trait> set = traits.length == 0 ? Set.of() : Set.copyOf(EnumSet.of(traits[0], traits));
        return new Simple(name, description, java.util.Objects.requireNonNull(family, "family"), start, stop,
                sessionTimeouts, set);
    }
}
