package io.zkchaos.nemesis;

import java.util.List;
import java.util.Optional;

/**
 * The processes of a system under test, as the nemesis sees them: named nodes it can kill, pause, resume and start,
 * and a way to ask who leads. A backend implements it (local JVM processes, containers, the project's own nodes);
 * the nemesis knows nothing else about them. What only some systems can do is an interface of its own that a
 * backend implements or not: {@link ServingWait}, {@link PowerFailure}, {@link DataReplacement}, {@link DiskControl},
 * {@link ClockControl}; a fault that needs one the target lacks cannot act, and says so.
 *
 * <p>Every action has taken effect when it returns: {@link #kill} is a SIGKILL whose process is gone,
 * {@link #pause} a SIGSTOP (or a container paused). Actions are idempotent where that is meaningful (killing a node
 * that is down does nothing). Implementations are thread-safe.
 */
public interface NodeControl {

    /** Node names ({@code n1 .. nN}), in order. */
    List<String> nodes();

    /** What the harness did to the node last. */
    NodeState state(String node);

    /** The node that leads now, asked of the nodes themselves; empty when none leads. */
    Optional<String> leader();

    /** Starts a node that is down, on its existing data; no-op if it runs. Does not wait for it to serve. */
    void start(String node);

    /** SIGKILLs a node and waits until its process is gone; no-op if it is down. */
    void kill(String node);

    /** SIGSTOPs a running node; no-op if it is paused or down. */
    void pause(String node);

    /** SIGCONTs a paused node; no-op otherwise. */
    void resume(String node);

    /** Kills (if running) and starts a node again on the same data and ports. */
    default void restart(String node) {
        kill(node);
        start(node);
    }

    // ---- what the system felt: measures read from the system itself, for each fault's record ({@link Felt}) ----

    /**
     * The state of {@code node}'s process as the operating system (or container engine) shows it now, not what the
     * harness did last ({@link #state}): {@link NodeState#DOWN} when no process is there, {@link NodeState#PAUSED}
     * when it is stopped (SIGSTOP), {@link NodeState#RUNNING} otherwise. Empty when this system cannot tell (the
     * default): the kill or pause is then not measured.
     */
    default Optional<NodeState> processSeen(String node) {
        return Optional.empty();
    }

    /** The smallest number of nodes that forms a majority. */
    default int quorumSize() {
        return nodes().size() / 2 + 1;
    }
}
