package io.zkchaos.checkers.leader;

/**
 * How long the system was without a leader after a nemesis action.
 *
 * @param trigger       {@code heal}, or the fault name for failovers measured from a fault's start
 * @param triggerIndex  history index of the heal's info (or the fault's invoke)
 * @param triggerNanos  its time, -1 if unknown
 * @param leader        the leader found (the one in force at the trigger, or the next to acquire), or null if none
 * @param failoverNanos time from the trigger until {@code leader} held, -1 if none or no times
 * @param withinBound   whether a leader held within the bound; null when it cannot be told (the history ends
 *                      before the bound elapsed, or has no times) or when no bound applies (fault starts)
 */
public record Failover(String trigger, long triggerIndex, long triggerNanos, LeaderInterval leader,
                       long failoverNanos, Boolean withinBound) {
}
