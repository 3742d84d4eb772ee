package io.zkchaos.checkers;

import io.zkchaos.checkers.fenced.FencedWritesChecker;
import io.zkchaos.checkers.leader.SingleLeaderChecker;
import io.zkchaos.checkers.log.LogPrefixChecker;
import io.zkchaos.checkers.readmodel.ZkReadModelChecker;
import io.zkchaos.checkers.set.NoLostCommitChecker;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The history checkers by the names the CLI and test configurations use, with their options as strings.
 *
 * <table>
 *   <caption>Names and options</caption>
 *   <tr><th>name</th><th>options</th></tr>
 *   <tr><td>{@code single-leader}</td><td>{@code max-overlap} (duration; overlaps longer fail the run; default:
 *       none fail), {@code failover-bound} (duration; default 30s)</td></tr>
 *   <tr><td>{@code no-lost-commit}</td><td>none</td></tr>
 *   <tr><td>{@code fenced-writes}</td><td>none</td></tr>
 *   <tr><td>{@code zk-read-model}</td><td>{@code strict} (true/false; stale plain reads fail; default false),
 *       {@code init} (every key's initial value: an integer, or a string; default null), {@code time-limit}
 *       (duration for the linearizability search; default none)</td></tr>
 *   <tr><td>{@code log-prefix}</td><td>none</td></tr>
 * </table>
 * Durations are {@code 500ms}, {@code 5s}, {@code 2m}, {@code 1h} or ISO-8601 ({@code PT5S}); booleans are
 * {@code true} or {@code false} (an empty value means true, for {@code strict}).
 */
public final class NamedCheckers {

    private static final Map<String, Set<String>> OPTIONS = new LinkedHashMap<>();

    static {
        OPTIONS.put("single-leader", Set.of("max-overlap", "failover-bound"));
        OPTIONS.put("no-lost-commit", Set.of());
        OPTIONS.put("fenced-writes", Set.of());
        OPTIONS.put("zk-read-model", Set.of("strict", "init", "time-limit"));
        OPTIONS.put("log-prefix", Set.of());
    }

    private NamedCheckers() {
    }

    /** The names {@link #byName} knows, in a stable order. */
    public static List<String> names() {
        return List.copyOf(OPTIONS.keySet());
    }

    /**
     * The checker called {@code name}, configured by {@code options}.
     *
     * @throws IllegalArgumentException for an unknown name or option (the message lists the known ones) or an
     *                                  option value that cannot be parsed (the message names the option)
     */
    public static Checker byName(String name, Map<String, String> options) {
        Map<String, String> opts = options == null ? Map.of() : options;
        Set<String> known = OPTIONS.get(name);
        if (known == null) {
            throw new IllegalArgumentException("unknown checker '" + name + "'; known checkers: "
                    + String.join(", ", OPTIONS.keySet()));
        }
        for (String option : opts.keySet()) {
            if (!known.contains(option)) {
                throw new IllegalArgumentException("unknown option '" + option + "' for checker " + name + "; "
                        + (known.isEmpty() ? "it takes no options" : "known options: "
                        + String.join(", ", known.stream().sorted().toList())));
            }
        }
        return switch (name) {
            case "single-leader" -> new SingleLeaderChecker(duration(name, "max-overlap", opts.get("max-overlap")),
                    opts.containsKey("failover-bound") ? duration(name, "failover-bound", opts.get("failover-bound"))
                            : SingleLeaderChecker.DEFAULT_FAILOVER_BOUND);
            case "no-lost-commit" -> new NoLostCommitChecker();
            case "fenced-writes" -> new FencedWritesChecker();
            case "zk-read-model" -> ZkReadModelChecker.of(init(opts.get("init")),
                    bool(name, "strict", opts.get("strict")),
                    duration(name, "time-limit", opts.get("time-limit")));
            case "log-prefix" -> new LogPrefixChecker();
            default -> throw new IllegalStateException("no factory for " + name);
        };
    }

    /** Parses a {@link DurationText} duration; null stays null. */
    static Duration duration(String checker, String option, String text) {
        if (text == null) {
            return null;
        }
        return DurationText.parse(text).orElseThrow(() -> new IllegalArgumentException(checker + " option "
                + option + ": '" + text + "' is not a duration (use e.g. 500ms, 5s, 2m, 1h or PT5S)"));
    }

    private static boolean bool(String checker, String option, String text) {
        if (text == null) {
            return false;
        }
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "", "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException(checker + " option " + option + ": '" + text
                    + "' is not true or false");
        };
    }

    private static Object init(String text) {
        if (text == null || text.equals("null")) {
            return null;
        }
        try {
            return Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            return text;
        }
    }
}
