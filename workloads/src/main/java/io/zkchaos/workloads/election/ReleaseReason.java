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
    NODE_DELETED;

    /** {@code closed}, {@code session-expired}, {@code disconnected}, {@code node-deleted}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
