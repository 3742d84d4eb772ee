package io.zkchaos.harness.testing;

import java.util.Locale;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;

/**
 * The one gate of tests that need something outside the JVM ({@code .ci/run} installs each of them: a Docker engine,
 * the lazy file system's FUSE, gcc and libfuse3, Chromium). Where it is missing, the test is skipped, saying why on
 * stderr and in the test report; under {@code CI=true} (set by {@code .ci/run} and by GitHub Actions) it fails
 * instead, so that a CI machine that lost a prerequisite cannot pass by testing less.
 *
 * <p>A whole class is gated with {@link #forClass}, registered as an extension: its tests are reported skipped one by
 * one, each with the reason. An assumption in {@code @BeforeAll} would not do: Surefire reports such a class as zero
 * tests, with no reason, so nobody would be told.
 */
public final class Prerequisites {

    /** The environment variable CI systems set; {@code true} turns a missing prerequisite into a failure. */
    static final String CI = "CI";

    private Prerequisites() {
    }

    /**
     * Lets the calling test method go on when {@code missing} is empty; else skips it (a JUnit assumption), or fails
     * it under {@code CI=true}. For a test method's body; a whole class takes {@link #forClass}.
     *
     * @param what    the prerequisite, as people call it ({@code docker}, {@code the lazy file system})
     * @param missing why it cannot be used here, or empty when it can
     */
    public static void require(String what, Optional<String> missing) {
        skipReason(what, missing, onCi(System.getenv(CI))).ifPresent(Assumptions::abort);
    }

    /**
     * The gate of a whole class, checked once before anything of it runs ({@code @BeforeAll} included):
     * {@code @RegisterExtension static final ExecutionCondition DOCKER = Prerequisites.forClass("docker",
     * DockerEngine::unavailable);}. Missing, every test of the class is skipped with the reason, or, under
     * {@code CI=true}, the class fails.
     *
     * @param what  the prerequisite, as people call it
     * @param probe why it cannot be used here, or empty when it can
     */
    public static ExecutionCondition forClass(String what, Supplier<Optional<String>> probe) {
        return forClass(what, probe, () -> onCi(System.getenv(CI)));
    }

    static ExecutionCondition forClass(String what, Supplier<Optional<String>> probe, BooleanSupplier ci) {
        return context -> {
            if (context.getTestMethod().isPresent()) {
                return ConditionEvaluationResult.enabled(what + " was checked for the class");
            }
            return skipReason(what, probe.get(), ci.getAsBoolean())
                    .map(ConditionEvaluationResult::disabled)
                    .orElseGet(() -> ConditionEvaluationResult.enabled(what + " is here"));
        };
    }

    /**
     * Why a test that needs {@code what} is skipped, or empty when it is here.
     *
     * @throws org.opentest4j.AssertionFailedError when it is missing under {@code CI=true}
     */
    static Optional<String> skipReason(String what, Optional<String> missing, boolean ci) {
        if (missing.isEmpty()) {
            return Optional.empty();
        }
        String why = what + " cannot be used here: " + missing.get();
        if (ci) {
            Assertions.fail(why + " (CI=true: a prerequisite .ci/run installs is missing, so the test fails "
                    + "instead of skipping)");
        }
        System.err.println("SKIPPED: " + why);
        return Optional.of(why + " (skipped; under CI=true this fails)");
    }

    /** Whether {@code value} of {@code CI} says this is a CI run: {@code true} in any case, as CI systems set it. */
    static boolean onCi(String value) {
        return value != null && value.trim().toLowerCase(Locale.ROOT).equals("true");
    }
}
