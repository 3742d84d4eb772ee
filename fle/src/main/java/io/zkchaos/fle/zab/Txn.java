package io.zkchaos.fle.zab;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A state-machine command, as proposed, logged and applied. Every command is deterministic given the state it is
 * applied to, so every server that applies the same log computes the same results: a compare-and-set whose expected
 * value does not match is logged like any other command and fails when applied, everywhere alike.
 */
public sealed interface Txn {

    /** The key the command reads or writes. */
    String key();

    /** The command as plain data (for {@code read-log}): {@code {"op": "put", "key": k, "value": v}} and so on. */
    Map<String, Object> asData();

    /** Sets {@code key} to {@code value}. */
    record Put(String key, String value) implements Txn {
        public Put {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(value, "value");
        }

        @Override
        public Map<String, Object> asData() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("op", "put");
            m.put("key", key);
            m.put("value", value);
            return m;
        }
    }

    /** Sets {@code key} to {@code value} if it holds {@code expected} ({@code null}: if it is absent). */
    record Cas(String key, String expected, String value) implements Txn {
        public Cas {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(value, "value");
        }

        @Override
        public Map<String, Object> asData() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("op", "cas");
            m.put("key", key);
            m.put("expected", expected);
            m.put("value", value);
            return m;
        }
    }

    /** Reads {@code key} at its place in the log: a linearizable read. */
    record SyncRead(String key) implements Txn {
        public SyncRead {
            Objects.requireNonNull(key, "key");
        }

        @Override
        public Map<String, Object> asData() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("op", "sync");
            m.put("key", key);
            return m;
        }
    }
}
