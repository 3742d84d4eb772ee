package io.zkchaos.workloads.election;

import java.util.Locale;

/** Why a leader stopped believing it leads; the history records {@link #wireName()}. */
public enum ReleaseReason {
    /** It gave up: {@link LeaderElection#close()}. */
    CLOSED,
    /** Its session expired while it still believed it led: its ephemeral is gone. */
    SESSION_EXPIRED,
    /** Its connection dropped: the session (and the node) may already be gone, so it must not act as leader. */
    DISCONNECTED,
    /** Its znode was deleted under it (by someone else, or the session ended) while the session lives. */
    NODE_DELETED,
    /**
     * Recorded by the harness, not by the candidate: the client process died (killed, crashed, or killed at the end
     * of the run because it never finished) while it led; a dead process believes nothing.
     */
    PROCESS_DIED;

    /** {@code closed}, {@code session-expired}, {@code disconnected}, {@code node-deleted}, {@code process-died}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
