package io.zkchaos.checkers;

/** The settings a checker may take, by the names the CLI gives them ({@code --max-overlap}). */
public enum CheckerOption {
    /** The model of the linearizability search. */
    MODEL("model"),
    /** The model's (or every key's) initial value. */
    INIT("init"),
    /** The budget of a search; past it the verdict is unknown. */
    TIME_LIMIT("time-limit"),
    /** ZooKeeper's documented stale plain reads count as violations. */
    STRICT("strict"),
    /** Real-time overlaps of two leaders longer than this fail the run. */
    MAX_OVERLAP("max-overlap"),
    /** After every heal a leader must exist again within this bound. */
    FAILOVER_BOUND("failover-bound");

    private final String cliName;

    CheckerOption(String cliName) {
        this.cliName = cliName;
    }

    /** The name on the command line, without dashes. */
    public String cliName() {
        return cliName;
    }
}
