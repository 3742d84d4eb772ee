package io.zkchaos.junit.internal;

import io.zkchaos.checkers.CheckerCatalog;
import io.zkchaos.checkers.CheckerOptions;
import io.zkchaos.checkers.DurationText;
import io.zkchaos.checkers.codec.Edn;
import io.zkchaos.checkers.history.MalformedHistoryException;
import io.zkchaos.harness.run.config.RunConfig;
import io.zkchaos.junit.ChaosTest;
import io.zkchaos.junit.ZkChaos;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * A chaos test's annotations, and the system properties that override them, as the harness's {@link RunConfig}
 * plus what only the extension needs. Every default not set here comes from the harness's parts
 * ({@code RunConfig.*.defaults()}). Errors name the annotation attribute that is wrong.
 *
 * @param config        the run
 * @param checkers      the checkers that judge it, by name
 * @param failOnUnknown whether an unknown verdict fails the test
 * @param openTimeout   how long a client process may go on failing to open before the test fails
 */
record ChaosSettings(RunConfig config, List<String> checkers, boolean failOnUnknown, Duration openTimeout) {

    /** The least {@link #openTimeout} by default: what the harness gives its own first connect on a loaded machine. */
    static final Duration LEAST_OPEN_TIMEOUT = Duration.ofSeconds(30);

    static final String TIME_PROPERTY = "zkchaos.chaos.time";
    static final String SEED_PROPERTY = "zkchaos.chaos.seed";
    static final String STORE_PROPERTY = "zkchaos.store";
    static final String DEFAULT_STORE = "target/zkchaos";

    /**
     * @param ensemble the class's {@link ZkChaos}, or null for the defaults
     * @param test     the method's {@link ChaosTest}
     * @param method   the test method (its name names the workload unless the annotation does)
     */
    static ChaosSettings of(ZkChaos ensemble, ChaosTest test, Method method) {
        RunConfig.Builder b = RunConfig.builder();
        if (ensemble != null) {
            if (ensemble.nodes() != 0) {
                b.nodes(ensemble.nodes());
            }
            if (!ensemble.zookeeper().isBlank()) {
                b.zookeeper(ensemble.zookeeper().trim());
            }
            if (!ensemble.backend().isBlank()) {
                b.backend(ensemble.backend().trim());
            }
        }
        String store = System.getProperty(STORE_PROPERTY, "");
        if (store.isBlank()) {
            store = ensemble == null || ensemble.store().isBlank() ? DEFAULT_STORE : ensemble.store().trim();
        }
        b.out(Path.of(store));

        b.customWorkload(test.name().isBlank() ? kebab(method.getName()) : test.name().trim());
        b.nemesis(test.nemesis());
        b.compose(test.compose());
        String timeText = System.getProperty(TIME_PROPERTY, "").isBlank() ? test.time()
                : System.getProperty(TIME_PROPERTY);
        Duration time = duration(timeText, "time");
        b.timeLimit(time);
        b.faultFor(test.faultFor().isBlank() ? time.dividedBy(4) : duration(test.faultFor(), "faultFor"));
        b.healFor(test.healFor().isBlank() ? time.dividedBy(5) : duration(test.healFor(), "healFor"));
        if (!test.recover().isBlank()) {
            b.recover(duration(test.recover(), "recover"));
        }
        if (test.concurrency() != 0) {
            b.concurrency(test.concurrency());
        }
        if (!test.sessionTimeout().isBlank()) {
            b.sessionTimeout(duration(test.sessionTimeout(), "sessionTimeout"));
        }
        CheckerOptions checks = RunConfig.defaultChecks();
        if (!test.model().isBlank()) {
            checks = checks.withModel(test.model().trim(), init(test.init()));
        }
        if (!test.failoverBound().isBlank()) {
            checks = checks.withFailoverBound(duration(test.failoverBound(), "failoverBound"));
        }
        b.checks(checks);
        b.seed(seed(test.seed()));

        List<String> checkers = List.of(test.checkers());
        if (checkers.isEmpty()) {
            throw new IllegalArgumentException("@ChaosTest(checkers = ...) names no checker");
        }
        for (String name : checkers) {
            try {
                CheckerCatalog.create(name, checks); // an unknown checker, or one missing its model, fails here
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("@ChaosTest(checkers = \"" + name + "\"): "
                        + e.getMessage().replace("--model", "model = ..."), e);
            }
        }
        RunConfig config = b.build();
        Duration openTimeout = test.openTimeout().isBlank() ? defaultOpenTimeout(config)
                : duration(test.openTimeout(), "openTimeout");
        return new ChaosSettings(config, checkers, test.failOnUnknown(), openTimeout);
    }

    /**
     * The larger of {@link #LEAST_OPEN_TIMEOUT} and the nemesis's fault hold plus three session timeouts: while a
     * fault is in force a correct client may not open at all, and after the heal a restarted server, an election and
     * the client's own connect back-off take a few session timeouts.
     */
    static Duration defaultOpenTimeout(RunConfig config) {
        Duration hold = config.nemesisDescriptor().isNone() ? Duration.ZERO
                : config.nemesisDescriptor().hold(config.nemesisTiming());
        Duration afterFault = hold.plus(config.workload().sessionTimeout().multipliedBy(3));
        return afterFault.compareTo(LEAST_OPEN_TIMEOUT) > 0 ? afterFault : LEAST_OPEN_TIMEOUT;
    }

    /** {@code counterIsLinearizable} becomes {@code counter-is-linearizable}. */
    static String kebab(String name) {
        return name.replaceAll("([a-z0-9])([A-Z])", "$1-$2").replace('_', '-').toLowerCase(Locale.ROOT);
    }

    private static Duration duration(String text, String attribute) {
        Duration d = DurationText.parse(text.trim()).orElseThrow(() -> new IllegalArgumentException(
                "@ChaosTest(" + attribute + " = \"" + text + "\") is not a duration; write e.g. 500ms, 20s, 2m"));
        if (d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException("@ChaosTest(" + attribute + " = \"" + text + "\") must be positive");
        }
        return d;
    }

    private static Object init(String text) {
        if (text.isBlank()) {
            return null;
        }
        try {
            return Edn.parse(text.trim(), "@ChaosTest(init = \"" + text + "\")");
        } catch (MalformedHistoryException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    private static long seed(String annotated) {
        String text = System.getProperty(SEED_PROPERTY, "").isBlank() ? annotated : System.getProperty(SEED_PROPERTY);
        if (text.isBlank()) {
            return System.currentTimeMillis();
        }
        try {
            return Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("the seed must be a whole number, got '" + text + "'", e);
        }
    }
}
