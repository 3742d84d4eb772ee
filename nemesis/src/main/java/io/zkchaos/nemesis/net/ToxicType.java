package io.zkchaos.nemesis.net;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The toxic types both backends support, with Toxiproxy's type names and attribute names. Every attribute is a
 * non-negative integer; an attribute left out defaults to 0, as in Toxiproxy.
 */
public enum ToxicType {
    /** Delays every chunk by {@code latency} ms, plus or minus up to {@code jitter} ms; order is preserved. */
    LATENCY("latency", "latency", "jitter"),
    /** Limits the stream to {@code rate} KB/s (1 KB = 1000 bytes, as in Toxiproxy). */
    BANDWIDTH("bandwidth", "rate"),
    /**
     * Cuts every chunk into pieces of {@code average_size} plus or minus {@code size_variation} bytes, each piece
     * {@code delay} microseconds after the previous one. No byte is lost or reordered.
     */
    SLICER("slicer", "average_size", "size_variation", "delay"),
    /**
     * Stops all data (it is read and dropped). With {@code timeout} 0 the connection stays open, stalled, until the
     * toxic is removed, and is then closed (the stream lost bytes, so it cannot go on). With {@code timeout} &gt; 0
     * the connection is closed once {@code timeout} ms pass without new data arriving.
     */
    TIMEOUT("timeout", "timeout"),
    /**
     * When the stream next carries data, waits {@code timeout} ms and then resets the connection (TCP RST: the
     * sockets are closed with SO_LINGER 0). The data that triggered it is dropped.
     */
    RESET_PEER("reset_peer", "timeout"),
    /** Passes the first {@code bytes} bytes of the stream, then closes the connection. */
    LIMIT_DATA("limit_data", "bytes");

    private final String wireName;
    private final List<String> attributes;

    ToxicType(String wireName, String... attributes) {
        this.wireName = wireName;
        this.attributes = List.of(attributes);
    }

    /** Toxiproxy's type name, e.g. {@code reset_peer}. */
    @JsonValue
    public String wireName() {
        return wireName;
    }

    /** The attribute names this type understands, in Toxiproxy's spelling. */
    public List<String> attributes() {
        return attributes;
    }

    /**
     * Parses Toxiproxy's type name.
     *
     * @throws IllegalArgumentException naming the bad value and the supported ones
     */
    @JsonCreator
    public static ToxicType fromWireName(String name) {
        for (ToxicType t : values()) {
            if (t.wireName.equals(name)) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown toxic type '" + name + "': supported are "
                + Arrays.stream(values()).map(ToxicType::wireName).collect(Collectors.joining(", ")));
    }
}
