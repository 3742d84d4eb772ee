package io.zkchaos.fle.zab;

/**
 * Who asked for a command: the server the client talks to ({@code sid}), that server's incarnation (a fresh number at
 * every start, so that a command from before a restart never answers a request made after it) and the request.
 */
public record Origin(long sid, long incarnation, long request) {

    /** For commands nobody waits for. */
    public static final Origin NONE = new Origin(0, 0, 0);
}
