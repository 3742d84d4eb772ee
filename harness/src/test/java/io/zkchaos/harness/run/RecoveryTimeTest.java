package io.zkchaos.harness.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zkchaos.workloads.ClientDeadline;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The clients' end moves on while the final heal goes on, and lies the recovery time after its end. */
class RecoveryTimeTest {

    @Test
    void theClientsWorkThroughALongHealAndGetTheirWholeRecoveryTimeAfterIt() {
        ClientDeadline end = ClientDeadline.after(Duration.ofMillis(300));
        RecoveryTime recovery = new RecoveryTime(Duration.ofMillis(300), List.of(end::extendBy));

        recovery.began();
        long healStarted = System.nanoTime();
        // a heal three times longer than the end was away: the end never comes while it goes on
        await().pollDelay(Duration.ofMillis(900)).atMost(Duration.ofSeconds(30)).until(() -> true);
        assertThat(end.passed()).isFalse();
        long healEnded = System.nanoTime();
        recovery.ended();

        assertThat(end.atNanos() - healEnded).as("the recovery time counts from the heal's end")
                .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(300));
        assertThat(recovery.healTook()).hasValueSatisfying(d -> assertThat(d.toNanos())
                .isGreaterThanOrEqualTo(healEnded - healStarted - TimeUnit.MILLISECONDS.toNanos(1)));
        await().atMost(Duration.ofSeconds(30)).until(end::passed);
        long settled = end.atNanos();
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5)).until(() -> end.atNanos() == settled);
    }

    @Test
    void aQuickHealLeavesAnEndThatIsLaterThanTheRecoveryTimeWhereItIs() {
        ClientDeadline end = ClientDeadline.after(Duration.ofMinutes(10));
        long planned = end.atNanos();
        RecoveryTime recovery = new RecoveryTime(Duration.ofSeconds(1), List.of(end::extendBy));
        recovery.began();
        recovery.ended();
        assertThat(end.atNanos()).isEqualTo(planned);
    }
}
