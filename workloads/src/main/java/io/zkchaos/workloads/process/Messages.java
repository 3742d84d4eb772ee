package io.zkchaos.workloads.process;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The report protocol between a client process and the harness: one JSON object per line, a {@code type} field
 * saying what it is. Plain data only (the values of history entries), integers read as {@code Long}.
 *
 * <p>Client to harness (its stdout): {@code hello} {@code {pid}}; {@code invoke} {@code {seq, process, f, key,
 * value, wall}} ({@code wall}: the client's wall clock, epoch ms), answered by an {@code ack} once the harness
 * recorded it; {@code complete} {@code {process, f, result (ok|fail|info), value, error}}; {@code bye} when every
 * operation it started is completed and it is about to exit. Harness to client (its stdin): {@code go}
 * {@code {remaining}} (milliseconds from now until the run's clients stop: a span, which a client whose wall clock
 * is moved still measures right); {@code extend} {@code {remaining}} (the clients now stop that long from now, if that
 * is later than before: the run's final heal took time); {@code stop} (the clients end now, before their end: a test
 * that has seen what it waits for, {@link io.zkchaos.workloads.ClientDeadline#stop}); {@code ack}
 * {@code {seq, index, time}}.
 */
final class Messages {

    static final String HELLO = "hello";
    static final String INVOKE = "invoke";
    static final String COMPLETE = "complete";
    static final String BYE = "bye";
    static final String GO = "go";
    static final String EXTEND = "extend";
    static final String STOP = "stop";
    static final String ACK = "ack";

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.USE_LONG_FOR_INTS)
            .build();

    private Messages() {
    }

    /** A message of {@code type} with fields given as name, value, name, value ... */
    static String encode(String type, Object... fields) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", type);
        for (int i = 0; i + 1 < fields.length; i += 2) {
            m.put((String) fields[i], fields[i + 1]);
        }
        try {
            return MAPPER.writeValueAsString(m);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot encode a " + type + " message: " + e.getOriginalMessage(), e);
        }
    }

    /** One line as a map with a {@code type}. */
    static Map<?, ?> decode(String line) {
        Object v;
        try {
            v = MAPPER.readValue(line, Object.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a report message: " + abbreviate(line), e);
        }
        if (!(v instanceof Map<?, ?> m) || !(m.get("type") instanceof String)) {
            throw new IllegalArgumentException("not a report message (no type): " + abbreviate(line));
        }
        return m;
    }

    static long longField(Map<?, ?> m, String field) {
        if (m.get(field) instanceof Number n) {
            return n.longValue();
        }
        throw new IllegalArgumentException("report message " + m.get("type") + " lacks the number " + field + ": "
                + m);
    }

    static String abbreviate(String s) {
        return s.length() <= 200 ? s : s.substring(0, 200) + "...";
    }
}
