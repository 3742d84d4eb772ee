package io.zkchaos.nemesis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zkchaos.checkers.history.InMemoryRecorder;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The final heal tells its listener when it begins and when it has ended, once, even when the heal breaks. */
class FinalHealListenerTest {

    private final List<String> events = new CopyOnWriteArrayList<>();

    private NemesisDriver.FinalHealListener listener() {
        return new NemesisDriver.FinalHealListener() {
            @Override
            public void began() {
                events.add("began");
            }

            @Override
            public void ended() {
                events.add("ended");
            }
        };
    }

    private Nemesis healing(RuntimeException failure) {
        return new Nemesis() {
            @Override
            public FaultRecord invoke(FaultOp op) {
                return FaultRecord.process(op.fault(), "did", List.of());
            }

            @Override
            public FaultRecord healAll() {
                events.add("heal");
                if (failure != null) {
                    throw failure;
                }
                return FaultRecord.process("heal", "healed", List.of());
            }
        };
    }

    @Test
    void theListenerHearsTheHealBeginAndEndOnceAroundIt() {
        NemesisDriver driver = new NemesisDriver(healing(null), Optional.empty(), 1, new InMemoryRecorder(),
                Duration.ofMillis(50));
        driver.onFinalHeal(listener());
        driver.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> events.contains("ended"));
        driver.close(); // the heal happened already: not again, nothing more heard

        assertThat(events).containsExactly("began", "heal", "ended");
    }

    @Test
    void aHealThatBreaksStillEnds() {
        NemesisDriver driver = new NemesisDriver(healing(new RuntimeException("engine gone")), Optional.empty(), 1,
                new InMemoryRecorder(), Duration.ofMinutes(5));
        driver.onFinalHeal(listener());
        driver.start();
        driver.close(); // the main phase cut short: close heals

        assertThat(events).containsExactly("began", "heal", "ended");
        assertThat(driver.actions()).singleElement().satisfies(a -> assertThat(a.error()).isEqualTo("engine gone"));
    }
}
