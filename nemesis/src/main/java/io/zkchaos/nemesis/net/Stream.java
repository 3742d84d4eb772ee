package io.zkchaos.nemesis.net;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * One direction of a link, with Toxiproxy's names: {@code upstream} is the data the connecting client sends towards
 * the link's upstream server; {@code downstream} is what the server sends back to the client.
 */
public enum Stream {
    /** Client to server: bytes read from the accepted connection, written to the upstream server. */
    UPSTREAM("upstream"),
    /** Server to client: bytes read from the upstream server, written back to the client. */
    DOWNSTREAM("downstream");

    private final String wireName;

    Stream(String wireName) {
        this.wireName = wireName;
    }

    /** Toxiproxy's name for this stream, as used in its API and in our history records. */
    @JsonValue
    public String wireName() {
        return wireName;
    }

    /**
     * Parses Toxiproxy's stream name.
     *
     * @throws IllegalArgumentException naming the bad value and the accepted ones
     */
    @JsonCreator
    public static Stream fromWireName(String name) {
        for (Stream s : values()) {
            if (s.wireName.equalsIgnoreCase(name)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown stream '" + name + "': expected 'upstream' or 'downstream'");
    }
}
