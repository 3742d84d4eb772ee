package io.zkchaos.fle.zab;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/** The replicated key-value map: what applying the committed log in zxid order yields. */
public final class KvState {

    /** What applying one command gave: {@code ok}, the value read or written, or why a cas failed. */
    public record Outcome(boolean ok, String value, String error) {
        static Outcome ok(String value) {
            return new Outcome(true, value, null);
        }

        static Outcome failed(String error, String current) {
            return new Outcome(false, current, error);
        }
    }

    private final Map<String, String> values = new HashMap<>();

    public String get(String key) {
        return values.get(key);
    }

    public void clear() {
        values.clear();
    }

    public Outcome apply(Txn txn) {
        if (txn instanceof Txn.Put p) {
            values.put(p.key(), p.value());
            return Outcome.ok(p.value());
        }
        if (txn instanceof Txn.Cas c) {
            String current = values.get(c.key());
            if (!Objects.equals(current, c.expected())) {
                return Outcome.failed("cas mismatch on '" + c.key() + "': expected "
                        + (c.expected() == null ? "absent" : "'" + c.expected() + "'") + ", found "
                        + (current == null ? "absent" : "'" + current + "'"), current);
            }
            values.put(c.key(), c.value());
            return Outcome.ok(c.value());
        }
        Txn.SyncRead r = (Txn.SyncRead) txn;
        return Outcome.ok(values.get(r.key()));
    }
}
