package io.zkchaos.nemesis;

/** What the harness did to a node's process last (not what the server thinks of itself, which a backend asks the server). */
public enum NodeState {
    /** Never started, stopped or killed: no process. */
    DOWN,
    /** A live process that is not paused. */
    RUNNING,
    /** A live process stopped with SIGSTOP. */
    PAUSED
}
