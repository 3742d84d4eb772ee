package io.zkchaos.checkers.servers;

/**
 * What a server may do under a fault that it must not do otherwise: a fault declares which of these it excuses on the
 * nodes it acts on, for its window and a stated time after its stop ({@link FaultWindow}). A programming error in a
 * server's log is never among them: no fault excuses a server's own bug, only a log rule with its root cause written
 * down does.
 */
public enum ServerBehaviour {
    /** The server process ends by itself ({@code server:crash}, {@code server:crash-loop}). */
    EXIT,
    /** The server starts syncing with a leader again and again without serving in between ({@code server:rejoin-loop}). */
    REJOIN,
    /** The server does not acknowledge writes within the availability bound ({@code availability:stall}). */
    STALL
}
