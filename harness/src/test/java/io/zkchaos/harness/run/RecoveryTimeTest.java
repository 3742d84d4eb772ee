package io.zkchaos.harness.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zkchaos.workloads.ClientDeadline;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The clients' end moves on while the final heal goes on and until a quorum serves, and then lies the recovery time
 * ahead. (Whether a quorum serves is a flag the test sets here; RunnerIT and the hunts use real ensembles.)
 */
class RecoveryTimeTest {

    private static final Duration RECOVER = Duration.ofMillis(300);

    @Test
    void theClientsWorkUntilAQuorumServesAfterTheHealAndGetTheirWholeRecoveryTimeFromThen() {
        ClientDeadline end = ClientDeadline.after(RECOVER);
        AtomicBoolean quorum = new AtomicBoolean();
        try (RecoveryTime recovery = new RecoveryTime(RECOVER, Duration.ofMinutes(1), quorum::get,
                List.of(end::extendBy))) {
            recovery.began();
            // a heal and an election together three times longer than the end was away: it never comes meanwhile
            await().pollDelay(Duration.ofMillis(450)).atMost(Duration.ofSeconds(30)).until(() -> true);
            recovery.ended();
            await().pollDelay(Duration.ofMillis(450)).atMost(Duration.ofSeconds(30)).until(() -> true);
            assertThat(end.passed()).as("no quorum yet").isFalse();
            assertThat(recovery.served()).isEmpty();

            long servedBy = System.nanoTime();
            quorum.set(true);
            await().atMost(Duration.ofSeconds(30)).until(() -> recovery.served().isPresent());
            assertThat(recovery.served()).contains(true);
            assertThat(end.atNanos() - servedBy).as("the recovery time counts from when a quorum served")
                    .isGreaterThanOrEqualTo(RECOVER.toNanos());
            assertThat(recovery.describe()).hasValueSatisfying(s -> assertThat(s).startsWith("the final heal took ")
                    .contains("a quorum served"));
            await().atMost(Duration.ofSeconds(30)).until(end::passed);
            long settled = end.atNanos();
            await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5))
                    .until(() -> end.atNanos() == settled);
        }
    }

    @Test
    void anEnsembleThatNeverServesGetsTheBoundAndNoMore() {
        ClientDeadline end = ClientDeadline.after(RECOVER);
        try (RecoveryTime recovery = new RecoveryTime(RECOVER, Duration.ofMillis(600), () -> false,
                List.of(end::extendBy))) {
            long healed = System.nanoTime();
            recovery.began();
            recovery.ended();
            await().atMost(Duration.ofSeconds(30)).until(() -> recovery.served().isPresent());
            assertThat(recovery.served()).contains(false);
            assertThat(end.atNanos() - healed).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(600)
                    + RECOVER.toNanos());
            assertThat(recovery.describe()).hasValueSatisfying(s -> assertThat(s).contains("no quorum served"));
            await().atMost(Duration.ofSeconds(30)).until(end::passed);
        }
    }

    @Test
    void aQuickHealOfAServingEnsembleLeavesAnEndThatIsLaterAlone() {
        ClientDeadline end = ClientDeadline.after(Duration.ofMinutes(10));
        long planned = end.atNanos();
        try (RecoveryTime recovery = new RecoveryTime(Duration.ofSeconds(1), Duration.ofMinutes(1), () -> true,
                List.of(end::extendBy))) {
            recovery.began();
            recovery.ended();
            await().atMost(Duration.ofSeconds(30)).until(() -> recovery.served().isPresent());
        }
        assertThat(end.atNanos()).isEqualTo(planned);
    }
}
