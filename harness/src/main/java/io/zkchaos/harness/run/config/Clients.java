package io.zkchaos.harness.run.config;

/** Where the clients of a run live: threads of the harness, or a JVM of their own each. */
public enum Clients {
    /** Every client a thread of the harness's JVM (the default). */
    THREAD,
    /** Every client a JVM of its own that the nemesis can freeze or kill ({@code pause-leader-client} ...). */
    PROCESS
}
