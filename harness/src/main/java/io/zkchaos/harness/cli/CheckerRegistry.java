package io.zkchaos.harness.cli;

import io.zkchaos.checkers.Checker;
import io.zkchaos.checkers.NamedCheckers;
import io.zkchaos.checkers.linear.LinearizabilityChecker;
import io.zkchaos.checkers.model.Model;
import io.zkchaos.checkers.model.Models;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The checkers the {@code check} command can run, by name ({@code --checker NAME}). A new checker is one
 * {@link #register} call with a factory from the command's options; the command itself does not change.
 */
public final class CheckerRegistry {

    /**
     * What the command line says about the check, for a factory to use or ignore.
     *
     * @param model     the {@code --model} name, or null if not given
     * @param init      the {@code --init} value as plain data (null for nil or not given)
     * @param timeLimit the {@code --time-limit}, or null for none
     * @param checkerOptions checker-specific settings given on the command line ({@code max-overlap},
     *                       {@code failover-bound}, {@code strict}), by {@link NamedCheckers} option name
     */
    public record Options(String model, Object init, Duration timeLimit, Map<String, String> checkerOptions) {
        public Options {
            checkerOptions = checkerOptions == null ? Map.of() : Map.copyOf(checkerOptions);
        }

        public Options(String model, Object init, Duration timeLimit) {
            this(model, init, timeLimit, Map.of());
        }
    }

    /** Builds a checker from the options. */
    @FunctionalInterface
    public interface Factory {
        /** @throws IllegalArgumentException for options this checker cannot use; the message is shown as is */
        Checker create(Options options);
    }

    private final Map<String, Factory> factories = new LinkedHashMap<>();
    private final Map<String, String> descriptions = new LinkedHashMap<>();

    /** The built-in checkers. */
    public static CheckerRegistry standard() {
        CheckerRegistry r = new CheckerRegistry();
        r.register("linearizable", "linearizability against --model (Porcupine-style WGL search, per key)",
                CheckerRegistry::linearizable);
        r.register("single-leader", "at most one leader per fencing token, tokens only grow, leader overlaps and "
                + "failover times (--max-overlap, --failover-bound)", o -> named("single-leader", o));
        r.register("no-lost-commit", "every acknowledged add is in every server's final read; nothing unwritten "
                + "is read", o -> named("no-lost-commit", o));
        r.register("fenced-writes", "no write accepted with a token lower than one already accepted",
                o -> named("fenced-writes", o));
        r.register("zk-read-model", "ZooKeeper's guarantees: writes, cas and sync-reads linearizable, plain reads "
                + "sequentially consistent per session (--strict: stale reads fail too; --init)",
                o -> named("zk-read-model", o));
        r.register("log-prefix", "the fle nodes' committed logs are prefixes of one another; nothing committed "
                + "disappears", o -> named("log-prefix", o));
        return r;
    }

    private static Checker linearizable(Options o) {
        if (o.model() == null) {
            throw new IllegalArgumentException("the linearizable checker needs --model; known models: "
                    + String.join(", ", Models.names()));
        }
        Model<?> model = Models.byName(o.model(), o.init());
        return LinearizabilityChecker.builder(model).timeLimit(o.timeLimit()).build();
    }

    /** A checker of {@link NamedCheckers}, given the options it understands (it names any it does not). */
    private static Checker named(String name, Options o) {
        Map<String, String> opts = new LinkedHashMap<>(o.checkerOptions());
        if (name.equals("zk-read-model")) {
            if (o.init() != null) {
                opts.put("init", String.valueOf(o.init()));
            }
            if (o.timeLimit() != null) {
                opts.put("time-limit", o.timeLimit().toMillis() + "ms");
            }
        }
        return NamedCheckers.byName(name, opts);
    }

    /** Adds (or replaces) the checker called {@code name}. */
    public CheckerRegistry register(String name, String description, Factory factory) {
        factories.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(factory, "factory"));
        descriptions.put(name, description);
        return this;
    }

    /** The registered names, in registration order. */
    public Set<String> names() {
        return Collections.unmodifiableSet(factories.keySet());
    }

    /** One line per checker: name and description. */
    public String describe() {
        StringBuilder sb = new StringBuilder();
        descriptions.forEach((n, d) -> sb.append("  ").append(n).append(": ").append(d).append('\n'));
        return sb.toString();
    }

    /**
     * Builds the checker called {@code name}.
     *
     * @throws IllegalArgumentException for an unknown name (listing the known ones) or options it cannot use
     */
    public Checker create(String name, Options options) {
        Factory f = factories.get(name);
        if (f == null) {
            throw new IllegalArgumentException("unknown checker '" + name + "'; known checkers: "
                    + String.join(", ", names()));
        }
        return f.create(options);
    }
}
