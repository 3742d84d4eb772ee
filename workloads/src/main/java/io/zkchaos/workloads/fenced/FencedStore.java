package io.zkchaos.workloads.fenced;

import io.zkchaos.workloads.Outcomes;
import io.zkchaos.workloads.Result;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * A shared log in one znode that rejects writes with a token lower than the highest it accepted (a fenced store).
 * Data: one line {@code "<token> <value>"} per accepted entry, in store order.
 *
 * <p>An append reads the log with its version, rejects a stale token, and writes the log plus the new entry with
 * {@code setData(path, data, version)}: if anyone appended in between the version no longer matches (BadVersion)
 * and it starts over, so the check and the append are one atomic step and a rejection is real. A stale read (a
 * lagging follower) cannot cause a wrong rejection: tokens in the store only grow, so if an old version already held
 * a higher token, the current one does too.
 *
 * <p>{@link #unfenced} is the same log without the check: it accepts every append, whatever its token (it keeps the
 * writer's token beside the value only as a label, so the log can be judged; it never compares it). That is a store
 * whose writers trust their lock alone.
 */
public final class FencedStore {

    private static final int MAX_ATTEMPTS = 20;

    private final String path;
    private final boolean fenced;

    /** A fenced store in the znode {@code path}. */
    public FencedStore(String path) {
        this(path, true);
    }

    private FencedStore(String path, boolean fenced) {
        this.path = Objects.requireNonNull(path, "path");
        this.fenced = fenced;
    }

    /** The same log without fencing: every append is accepted, whatever its token. */
    public static FencedStore unfenced(String path) {
        return new FencedStore(path, false);
    }

    /** Whether appends with a token lower than the highest accepted are rejected. */
    public boolean fenced() {
        return fenced;
    }

    public String path() {
        return path;
    }

    /** One accepted entry. */
    public record Entry(long token, long value) {
        public Map<String, Object> toValue() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("token", token);
            m.put("value", value);
            return m;
        }
    }

    /**
     * Appends {@code (token, value)}: ok (accepted), fail (rejected as stale, or never sent), or info (the write was
     * sent and its outcome is unknown). Unfenced: never rejected as stale.
     */
    public Result append(ZooKeeper zk, long token, long value) throws InterruptedException {
        Map<String, Object> entry = new Entry(token, value).toValue();
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            Stat stat = new Stat();
            List<Entry> log;
            try {
                log = parse(zk.getData(path, false, stat));
            } catch (KeeperException e) {
                return Result.failUnsent(Outcomes.describe(e));
            }
            long max = log.stream().mapToLong(Entry::token).max().orElse(Long.MIN_VALUE);
            if (fenced && token < max) {
                return Result.fail("stale token " + token + " < " + max);
            }
            List<Entry> next = new ArrayList<>(log);
            next.add(new Entry(token, value));
            try {
                zk.setData(path, format(next), stat.getVersion());
                return Result.ok(entry);
            } catch (KeeperException.BadVersionException e) {
                // Another append came in between, or this session's server had not applied the latest one when it
                // answered the read (a plain read may lag the leader): catch up, then check again against the new
                // log. Without the sync, a lagging server answered the same old version to every retry (seen at
                // load: 20 bad versions in a row with 4 appenders).
                try {
                    zk.sync(path);
                } catch (KeeperException s) {
                    return Result.failUnsent(Outcomes.describe(s)); // nothing of this append was applied
                }
            } catch (KeeperException e) {
                return Outcomes.indeterminate(e);
            }
        }
        return Result.fail("gave up after " + MAX_ATTEMPTS + " concurrent appends (bad-version each time)");
    }

    /** The whole log, in store order. */
    public List<Entry> read(ZooKeeper zk) throws KeeperException, InterruptedException {
        return parse(zk.getData(path, false, null));
    }

    static List<Entry> parse(byte[] data) {
        List<Entry> out = new ArrayList<>();
        if (data == null || data.length == 0) {
            return out;
        }
        for (String line : new String(data, StandardCharsets.US_ASCII).split("\n")) {
            if (line.isEmpty()) {
                continue;
            }
            int space = line.indexOf(' ');
            out.add(new Entry(Long.parseLong(line.substring(0, space)), Long.parseLong(line.substring(space + 1))));
        }
        return out;
    }

    static byte[] format(List<Entry> log) {
        StringBuilder sb = new StringBuilder();
        for (Entry e : log) {
            sb.append(e.token()).append(' ').append(e.value()).append('\n');
        }
        return sb.toString().getBytes(StandardCharsets.US_ASCII);
    }
}
