package io.zkchaos.nemesis;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The client processes of a run, as the nemesis sees them: processes it can pause, resume and kill, and a way to ask
 * which one holds leadership now. The harness implements it when clients run in processes of their own; the nemesis
 * knows nothing else about them (no workload, no ZooKeeper).
 *
 * <p>A client is named by the logical process it runs now ({@code p<process>}, as an election candidate names
 * itself), so that a fault's record names the same thing the history does. A frozen client's name cannot change
 * (nothing runs in it), so a pause and its resume name the same client.
 *
 * <p>Every action has taken effect when it returns: {@link #pause} is a SIGSTOP, {@link #kill} a SIGKILL whose
 * process is gone and whose unfinished operations are recorded; the implementation replaces a killed client with a
 * new process by itself, as a workload replaces a retired process. Implementations are thread-safe.
 */
public interface ClientControl {

    /** Clients that run as threads of the harness: none to act on; every action says so. */
    ClientControl NONE = new ClientControl() {
        @Override
        public List<String> clients() {
            return List.of();
        }

        @Override
        public NodeState state(String client) {
            throw none();
        }

        @Override
        public Optional<String> leader() {
            return Optional.empty();
        }

        @Override
        public void pause(String client) {
            throw none();
        }

        @Override
        public void resume(String client) {
            throw none();
        }

        @Override
        public void kill(String client) {
            throw none();
        }

        @Override
        public void setClockOffsets(Map<String, Duration> offsets) {
            throw none();
        }

        private IllegalStateException none() {
            return new IllegalStateException("clients run as threads of the harness: there is no client process to "
                    + "act on (client faults need clients in processes of their own)");
        }
    };

    /** The live client processes by name ({@code p3}, {@code p6}, ...), in a stable order (by client slot). */
    List<String> clients();

    /** What the harness did to the client last. */
    NodeState state(String client);

    /**
     * The client that holds leadership now by the history's account (it learned it leads and has not recorded that
     * it stopped); the newest if several believe it; empty when none does.
     */
    Optional<String> leader();

    /** SIGSTOPs the client's process; no-op if it is paused. */
    void pause(String client);

    /** SIGCONTs the client's process; no-op if it is not paused. */
    void resume(String client);

    /** SIGKILLs the client's process and waits until it is gone and its unfinished operations are recorded. */
    void kill(String client);

    /**
     * Sets each client's wall clock to the real time plus its offset ({@link Duration#ZERO} resets it), as
     * {@link ClockControl#setClockOffset} does for a node: only the wall clock moves, the monotonic clock runs on.
     * The offset belongs to the client's machine, not its process: a client process that replaces a killed one runs
     * on it too. Every offset has taken effect when this returns.
     *
     * @throws UnsupportedOperationException when these clients' clocks cannot be moved (the default)
     */
    default void setClockOffsets(Map<String, Duration> offsets) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot move a client's clock");
    }

    /** Each client whose clock is moved now, by its name now, with its offset; empty when none is (the default). */
    default Map<String, Duration> clockOffsets() {
        return Map.of();
    }
}
