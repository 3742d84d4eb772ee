package io.zkchaos.nemesis;

/**
 * One kind of fault, by the name the CLI takes: how to start it and how to stop (heal) it. Both act on the system
 * only through the {@link NemesisTarget} and answer with what they really did, as data for the history.
 *
 * <p>To add a fault: implement this (usually with {@link #of}), add it to {@link Faults}; it is then a nemesis of
 * its own and part of {@code mixed}.
 */
public interface Fault {

    /** The name the CLI and the history use, e.g. {@code kill-leader}. */
    String name();

    /** One line for people: what starting it does and what stopping it undoes. */
    String description();

    /**
     * Starts the fault.
     *
     * @throws IllegalStateException when it cannot act now (no leader to aim at); the driver records the reason
     */
    FaultRecord start(NemesisTarget target);

    /** Stops the fault: undoes what {@link #start} did. */
    FaultRecord stop(NemesisTarget target);

    /** Whether this fault can act on a system of {@code nodes} nodes (a partition needs at least 3). */
    default boolean supports(int nodes) {
        return nodes >= 3;
    }

    /**
     * Whether this fault acts on client processes ({@link NemesisTarget#clients()}): it can run only when clients
     * run in processes of their own, and a nemesis that mixes faults leaves it out otherwise.
     */
    default boolean needsClientProcesses() {
        return false;
    }

    /**
     * The shortest time this fault must be held to do what it is for, given the clients' session timeout (a client
     * partition must outlast it for sessions to expire); zero for most faults.
     */
    default java.time.Duration holdAtLeast(java.time.Duration sessionTimeout) {
        return java.time.Duration.ZERO;
    }

    /** What a fault does, as a function of the target. */
    @FunctionalInterface
    interface Action {
        FaultRecord apply(NemesisTarget target);
    }

    /** A fault from its parts. */
    static Fault of(String name, String description, Action start, Action stop) {
        return of(name, description, start, stop, 0);
    }

    /**
     * A fault on client processes ({@link #needsClientProcesses()}), held at least {@code sessionTimeouts} times the
     * clients' session timeout; it acts on any number of nodes.
     */
    static Fault onClients(String name, String description, Action start, Action stop, double sessionTimeouts) {
        Fault f = of(name, description, start, stop, sessionTimeouts);
        return new Fault() {
            @Override
            public String name() {
                return f.name();
            }

            @Override
            public String description() {
                return f.description();
            }

            @Override
            public FaultRecord start(NemesisTarget target) {
                return f.start(target);
            }

            @Override
            public FaultRecord stop(NemesisTarget target) {
                return f.stop(target);
            }

            @Override
            public boolean supports(int nodes) {
                return nodes >= 1;
            }

            @Override
            public boolean needsClientProcesses() {
                return true;
            }

            @Override
            public java.time.Duration holdAtLeast(java.time.Duration sessionTimeout) {
                return f.holdAtLeast(sessionTimeout);
            }

            @Override
            public String toString() {
                return name();
            }
        };
    }

    /**
     * A fault from its parts that must be held at least {@code sessionTimeouts} times the clients' session timeout
     * (see {@link #holdAtLeast}).
     */
    static Fault of(String name, String description, Action start, Action stop, double sessionTimeouts) {
        record Simple(String name, String description, Action startAction, Action stopAction, double timeouts)
                implements Fault {
            @Override
            public java.time.Duration holdAtLeast(java.time.Duration sessionTimeout) {
                return java.time.Duration.ofNanos((long) (sessionTimeout.toNanos() * timeouts));
            }

            @Override
            public FaultRecord start(NemesisTarget target) {
                return startAction.apply(target);
            }

            @Override
            public FaultRecord stop(NemesisTarget target) {
                return stopAction.apply(target);
            }
        }
        return new Simple(name, description, start, stop, sessionTimeouts);
    }
}
