package io.zkchaos.nemesis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zkchaos.checkers.history.InMemoryRecorder;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.nemesis.schedule.Schedules;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A fault action still running when the run closes (a rolling restart waiting for a node to serve) is interrupted;
 * it keeps the interrupt flag, as Java code should, and the final heal must still happen, not fail on that flag.
 */
class NemesisDriverInterruptTest {

    @Test
    void theFinalHealRunsWithTheInterruptFlagClearedAfterALongActionWasInterrupted() throws Exception {
        CountDownLatch inAction = new CountDownLatch(1);
        AtomicBoolean healedUninterrupted = new AtomicBoolean();
        Nemesis slow = new Nemesis() {
            @Override
            public FaultRecord invoke(FaultOp op) {
                inAction.countDown();
                try {
                    Thread.sleep(60_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt(); // kept, as a well-behaved action does
                }
                return FaultRecord.process(op.fault(), "waited", java.util.List.of());
            }

            @Override
            public FaultRecord healAll() {
                healedUninterrupted.set(!Thread.currentThread().isInterrupted());
                return FaultRecord.process("heal", "healed", java.util.List.of());
            }
        };
        InMemoryRecorder recorder = new InMemoryRecorder();
        NemesisDriver driver = new NemesisDriver(slow, Optional.of(Schedules.once("slow", Duration.ofMillis(1),
                Duration.ofSeconds(30))), 1, recorder, Duration.ofMinutes(5));
        driver.start();
        inAction.await();
        driver.close();
        assertThat(healedUninterrupted).isTrue();
        assertThat(driver.actions()).extracting(NemesisDriver.Action::step).containsExactly("start", "final-heal");
        assertThat(driver.actions().get(1).error()).isNull();
        await().atMost(Duration.ofSeconds(5)).until(() -> recorder.history().ops().stream()
                .anyMatch(o -> o.type() == OpType.INFO && "heal".equals(o.f())));
    }

    @Test
    void aFinalHealUnderWayOnTheDriversThreadIsNotInterruptedByClose() throws Exception {
        CountDownLatch inHeal = new CountDownLatch(1);
        CountDownLatch closeCalled = new CountDownLatch(1);
        AtomicBoolean interruptedInHeal = new AtomicBoolean();
        Nemesis slowHeal = new Nemesis() {
            @Override
            public FaultRecord invoke(FaultOp op) {
                return FaultRecord.process(op.fault(), "did", java.util.List.of());
            }

            @Override
            public FaultRecord healAll() {
                inHeal.countDown();
                try {
                    // a container engine's start call: an interrupt here would cut it short
                    closeCalled.await();
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    interruptedInHeal.set(true);
                    Thread.currentThread().interrupt();
                }
                return FaultRecord.process("heal", "healed", java.util.List.of());
            }
        };
        InMemoryRecorder recorder = new InMemoryRecorder();
        // no schedule: the main phase of 50 ms ends, and the driver's own thread begins the final heal
        NemesisDriver driver = new NemesisDriver(slowHeal, Optional.empty(), 1, recorder, Duration.ofMillis(50));
        driver.start();
        inHeal.await();
        Thread closer = new Thread(driver::close, "closer");
        closer.start();
        await("close waits for the heal").atMost(Duration.ofSeconds(10))
                .until(() -> closer.getState() != Thread.State.RUNNABLE && closer.getState() != Thread.State.NEW);
        closeCalled.countDown();
        closer.join(30_000);
        assertThat(interruptedInHeal).as("the heal under way was interrupted by close").isFalse();
        assertThat(driver.actions()).extracting(NemesisDriver.Action::step).containsExactly("final-heal");
        assertThat(driver.actions().get(0).error()).isNull();
    }
}
