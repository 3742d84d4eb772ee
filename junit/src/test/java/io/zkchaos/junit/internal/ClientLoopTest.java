package io.zkchaos.junit.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.checkers.history.InMemoryRecorder;
import io.zkchaos.junit.ChaosClient;
import io.zkchaos.junit.ChaosProcess;
import io.zkchaos.workloads.RunContext;
import io.zkchaos.workloads.Target;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@link ClientLoop}'s handling of a user's client that cannot be opened, without an ensemble: the user's factory
 * throws before it would connect anywhere.
 */
class ClientLoopTest {

    private final InMemoryRecorder history = new InMemoryRecorder();

    private RunningContext context(Duration run, Duration openTimeout) {
        RunningContext ctx = new RunningContext(2, openTimeout);
        Target nowhere = new Target("127.0.0.1:1", Map.of("n1", "127.0.0.1:1"), Duration.ofSeconds(1),
                Duration.ofSeconds(1));
        ctx.bind(new RunContext(nowhere, history, 1, 2, run));
        return ctx;
    }

    private static ChaosClient.Factory refused(AtomicInteger attempts) {
        return process -> {
            attempts.incrementAndGet();
            throw new IOException("connection refused by 127.0.0.1:1");
        };
    }

    @Test
    void aClientThatNeverOpensFailsTheTestOnceTheOpenTimeoutIsPast() {
        RunningContext ctx = context(Duration.ofMinutes(5), Duration.ofMillis(300));
        AtomicInteger attempts = new AtomicInteger();

        assertThatThrownBy(() -> ctx.runClients(refused(attempts)))
                .isInstanceOf(NothingTested.class)
                .isInstanceOf(AssertionError.class) // a body's catch (Exception e) lets it through
                .hasMessageMatching("process [01] could not open its client for \\d+ms, past the open timeout of "
                        + "300ms \\(@ChaosTest\\(openTimeout\\)\\): \\d+ attempt\\(s\\), the last failed with: "
                        + "IOException: connection refused by 127.0.0.1:1")
                .cause().isInstanceOf(IOException.class).hasMessage("connection refused by 127.0.0.1:1");
        assertThat(attempts.get()).as("tried again before giving up").isGreaterThan(2);
        assertThat(ctx.running()).as("the clients stopped at the bound, long before the run's end").isTrue();
        assertThat(history.history().ops()).isEmpty();
    }

    @Test
    void aRunShorterThanTheOpenTimeoutInWhichNoClientOpenedFailsToo() {
        RunningContext ctx = context(Duration.ofMillis(700), Duration.ofMinutes(1));

        assertThatThrownBy(() -> ctx.runClients(refused(new AtomicInteger())))
                .isInstanceOf(NothingTested.class)
                .hasMessageMatching("no client could be opened in the whole run: \\d+ attempt\\(s\\) by 2 "
                        + "process\\(es\\) failed \\(the open timeout, 60s, was not reached before the run ended\\); "
                        + "the last failed with: IOException: connection refused by 127.0.0.1:1")
                .cause().isInstanceOf(IOException.class);
        assertThat(ctx.running()).isFalse();
    }

    @Test
    void aClientThatOpensAfterAFailedAttemptGoesOn() throws InterruptedException {
        RunningContext ctx = context(Duration.ofMillis(700), Duration.ofMinutes(1));
        AtomicInteger attempts = new AtomicInteger();

        ctx.runClients(process -> {
            if (attempts.incrementAndGet() == 1) {
                throw new IOException("not yet");
            }
            return new Reader();
        });

        assertThat(attempts.get()).isEqualTo(3); // one failure, then each of the two processes opened once
        assertThat(ctx.tally().ok()).isPositive();
        assertThat(ctx.tally().shortfall("body")).isEmpty();
    }

    /** Reads a constant, one read per 20 ms, so that a short run records a few operations and no more. */
    private static final class Reader implements ChaosClient {
        @Override
        public void step(ChaosProcess process) throws Exception {
            process.call("read", null, () -> 1L);
            TimeUnit.MILLISECONDS.sleep(20);
        }

        @Override
        public void close() {
        }
    }
}
