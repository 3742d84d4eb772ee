package io.zkchaos.fle.election;

/** A server's state, as FLE notifications carry it (the wire code is the ordinal, as in ZooKeeper). */
public enum ServerState {
    LOOKING, FOLLOWING, LEADING, OBSERVING;

    public int code() {
        return ordinal();
    }

    public static ServerState ofCode(int code) {
        ServerState[] v = values();
        if (code < 0 || code >= v.length) {
            throw new IllegalArgumentException("unknown server state code " + code);
        }
        return v[code];
    }
}
