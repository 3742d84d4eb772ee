package io.zkchaos.workloads;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ClientDeadlineTest {

    @Test
    void anEndMovesLaterNeverEarlier() {
        ClientDeadline end = ClientDeadline.after(Duration.ofMinutes(1));
        long first = end.atNanos();
        end.extendBy(Duration.ofSeconds(1));
        assertThat(end.atNanos()).isEqualTo(first);

        long asked = System.nanoTime();
        end.extendBy(Duration.ofMinutes(5));
        assertThat(end.atNanos() - asked).isGreaterThanOrEqualTo(TimeUnit.MINUTES.toNanos(5));
        assertThat(end.passed()).isFalse();
        assertThat(end.remainingNanos()).isGreaterThan(TimeUnit.MINUTES.toNanos(4));
    }

    @Test
    void aStopEndsItAtOnceAndAnExtensionDoesNotUndoIt() {
        ClientDeadline end = ClientDeadline.after(Duration.ofMinutes(1));
        long before = System.nanoTime();
        end.stop();
        end.extendBy(Duration.ofMinutes(5));

        assertThat(end.passed()).isTrue();
        assertThat(end.remainingNanos()).isZero();
        assertThat(end.atNanos()).isBetween(before, System.nanoTime());
    }

    @Test
    void anEndThatCameBeforeTheStopStaysWhereItWas() {
        ClientDeadline end = ClientDeadline.after(Duration.ofMillis(1));
        long at = end.atNanos();
        while (!end.passed()) {
            Thread.onSpinWait();
        }
        end.stop();
        assertThat(end.atNanos()).isEqualTo(at);
    }
}
