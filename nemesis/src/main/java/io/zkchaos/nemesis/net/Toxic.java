package io.zkchaos.nemesis.net;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A toxic as Toxiproxy describes it: a named fault of one type on one stream of a link.
 *
 * <p>{@code toxicity} is the probability (0..1) that the toxic applies to a given connection; it is drawn once per
 * connection and toxic, when either comes into being. Attributes are integers, named as in Toxiproxy (see
 * {@link ToxicType}); missing ones default to 0, unknown ones are rejected.
 *
 * @param name       unique among the toxics of one link
 * @param type       what the toxic does
 * @param stream     the direction it acts on
 * @param toxicity   probability that it applies to a connection, 0..1
 * @param attributes the type's parameters, completed with 0 for those left out
 */
public record Toxic(String name, ToxicType type, Stream stream, double toxicity, Map<String, Long> attributes) {

    public Toxic {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(stream, "stream");
        Objects.requireNonNull(attributes, "attributes");
        if (name.isBlank()) {
            throw new IllegalArgumentException("toxic name must not be blank");
        }
        if (!(toxicity >= 0.0 && toxicity <= 1.0)) {
            throw new IllegalArgumentException("toxic '" + name + "': toxicity must be within 0..1, was " + toxicity);
        }
        Map<String, Long> complete = new TreeMap<>();
        for (String attribute : type.attributes()) {
            complete.put(attribute, 0L);
        }
        for (Map.Entry<String, Long> e : attributes.entrySet()) {
            if (!complete.containsKey(e.getKey())) {
                throw new IllegalArgumentException("toxic '" + name + "': type " + type.wireName()
                        + " has no attribute '" + e.getKey() + "' (it has " + type.attributes() + ")");
            }
            Long value = e.getValue();
            if (value == null || value < 0) {
                throw new IllegalArgumentException("toxic '" + name + "': attribute " + e.getKey()
                        + " must be a non-negative integer, was " + value);
            }
            complete.put(e.getKey(), value);
        }
        if (type == ToxicType.SLICER && complete.get("average_size") < 1) {
            throw new IllegalArgumentException("toxic '" + name + "': slicer average_size must be at least 1");
        }
        if (type == ToxicType.SLICER && complete.get("size_variation") >= complete.get("average_size")) {
            throw new IllegalArgumentException("toxic '" + name + "': slicer size_variation must be less than "
                    + "average_size, was " + complete.get("size_variation") + " >= " + complete.get("average_size"));
        }
        attributes = Map.copyOf(complete);
    }

    /** The value of an attribute of this toxic's type. */
    public long attribute(String attribute) {
        Long v = attributes.get(attribute);
        if (v == null) {
            throw new IllegalArgumentException("toxic '" + name + "' of type " + type.wireName()
                    + " has no attribute '" + attribute + "'");
        }
        return v;
    }

    /** The same toxic with another toxicity. */
    public Toxic withToxicity(double newToxicity) {
        return new Toxic(name, type, stream, newToxicity, attributes);
    }

    private static Map<String, Long> attrs(Object... kv) {
        Map<String, Long> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], ((Number) kv[i + 1]).longValue());
        }
        return m;
    }

    /** {@code latency}: every chunk is delayed by latency ± jitter milliseconds, order preserved. */
    public static Toxic latency(String name, Stream stream, long latencyMs, long jitterMs) {
        return new Toxic(name, ToxicType.LATENCY, stream, 1.0, attrs("latency", latencyMs, "jitter", jitterMs));
    }

    /** {@code bandwidth}: at most {@code rateKBps} × 1000 bytes per second. */
    public static Toxic bandwidth(String name, Stream stream, long rateKBps) {
        return new Toxic(name, ToxicType.BANDWIDTH, stream, 1.0, attrs("rate", rateKBps));
    }

    /** {@code slicer}: chunks cut into pieces of averageSize ± sizeVariation bytes, delayMicros apart. */
    public static Toxic slicer(String name, Stream stream, long averageSize, long sizeVariation, long delayMicros) {
        return new Toxic(name, ToxicType.SLICER, stream, 1.0,
                attrs("average_size", averageSize, "size_variation", sizeVariation, "delay", delayMicros));
    }

    /** {@code timeout}: no data passes; with timeoutMs &gt; 0 the connection is closed after that long idle. */
    public static Toxic timeout(String name, Stream stream, long timeoutMs) {
        return new Toxic(name, ToxicType.TIMEOUT, stream, 1.0, attrs("timeout", timeoutMs));
    }

    /** {@code reset_peer}: the connection is reset (RST) timeoutMs after the stream next carries data. */
    public static Toxic resetPeer(String name, Stream stream, long timeoutMs) {
        return new Toxic(name, ToxicType.RESET_PEER, stream, 1.0, attrs("timeout", timeoutMs));
    }

    /** {@code limit_data}: the first {@code bytes} bytes pass, then the connection is closed. */
    public static Toxic limitData(String name, Stream stream, long bytes) {
        return new Toxic(name, ToxicType.LIMIT_DATA, stream, 1.0, attrs("bytes", bytes));
    }
}
