package io.zkchaos.harness.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.opentest4j.AssertionFailedError;

class PrerequisitesTest {

    @Test
    void aPrerequisiteThatIsHereLetsTheTestGoOn() {
        assertThat(Prerequisites.skipReason("docker", Optional.empty(), true)).isEmpty();
        assertThat(Prerequisites.skipReason("docker", Optional.empty(), false)).isEmpty();
    }

    @Test
    void aMissingPrerequisiteSkipsTheTestSayingWhy() {
        assertThat(Prerequisites.skipReason("docker", Optional.of("no engine answers"), false))
                .hasValue("docker cannot be used here: no engine answers (skipped; under CI=true this fails)");
    }

    @Test
    void underCiAMissingPrerequisiteFailsTheTest() {
        assertThatThrownBy(() -> Prerequisites.skipReason("docker", Optional.of("no engine answers"), true))
                .isInstanceOf(AssertionFailedError.class)
                .hasMessageStartingWith("docker cannot be used here: no engine answers (CI=true");
    }

    @Test
    void ciIsOnWhenTheVariableSaysTrue() {
        assertThat(Prerequisites.onCi("true")).isTrue();
        assertThat(Prerequisites.onCi("TRUE")).isTrue();
        assertThat(Prerequisites.onCi(null)).isFalse();
        assertThat(Prerequisites.onCi("")).isFalse();
        assertThat(Prerequisites.onCi("false")).isFalse();
    }

    /** A class gated on something no machine has; run only through the test kit below. */
    static class NeedsAUnicorn {
        @RegisterExtension
        static final ExecutionCondition UNICORN = Prerequisites.forClass("a unicorn",
                () -> Optional.of("none in this stable"), () -> false);

        @Test
        void one() {
        }

        @Test
        void two() {
        }
    }

    /** The same, on a CI machine. */
    static class NeedsAUnicornOnCi {
        @RegisterExtension
        static final ExecutionCondition UNICORN = Prerequisites.forClass("a unicorn",
                () -> Optional.of("none in this stable"), () -> true);

        @Test
        void one() {
        }
    }

    /** Runs a gated class; none of its tests may start. */
    private static EngineExecutionResults runGated(Class<?> gated) {
        EngineExecutionResults results = EngineTestKit.engine("junit-jupiter").selectors(selectClass(gated))
                .execute();
        results.testEvents().assertStatistics(s -> s.started(0));
        return results;
    }

    @Test
    void aGatedClassIsSkippedWithTheReasonBeforeAnyOfItRuns() {
        EngineExecutionResults results = runGated(NeedsAUnicorn.class);
        // skipped as a whole, with the reason; Surefire then lists each of its tests as skipped with that message
        results.containerEvents().assertStatistics(s -> s.skipped(1));
        assertThat(results.containerEvents().skipped().list().get(0).getRequiredPayload(String.class))
                .isEqualTo("a unicorn cannot be used here: none in this stable (skipped; under CI=true this fails)");
    }

    @Test
    void underCiAGatedClassFails() {
        EngineExecutionResults results = runGated(NeedsAUnicornOnCi.class);
        results.containerEvents().assertStatistics(s -> s.failed(1));
        assertThat(results.containerEvents().failed().list().get(0).getRequiredPayload(TestExecutionResult.class)
                .getThrowable().orElseThrow()).isInstanceOf(AssertionFailedError.class)
                .hasMessageStartingWith("a unicorn cannot be used here: none in this stable (CI=true");
    }
}
