package io.zkchaos.workloads;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.gen.Gen;
import io.zkchaos.checkers.gen.Gens;
import io.zkchaos.checkers.history.InMemoryRecorder;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A process whose operation ended {@code info} is retired, as in Jepsen: its client is closed, and its slot goes on
 * under a new process number (old + concurrency) with a new client. Without a server: the clients are fakes.
 */
class ClientWorkloadRetiresTest {

    @Test
    void anIndeterminateOperationRetiresItsProcessAndTheSlotGoesOnUnderANewNumber() throws Exception {
        List<String> opened = new CopyOnWriteArrayList<>();
        List<String> closed = new CopyOnWriteArrayList<>();
        AtomicInteger calls = new AtomicInteger();
        ClientWorkload w = new ClientWorkload() {
            @Override
            protected Gen<Invocation> generator() {
                return Gens.repeat(new Invocation("write", "k", 1L)).limit(6);
            }

            @Override
            protected Client open(int process, Target target) {
                opened.add("p" + process);
                return new Client() {
                    @Override
                    public Result invoke(Invocation op) {
                        // the second call of all times out; the fourth is refused
                        int n = calls.incrementAndGet();
                        return n == 2 ? Result.info("timeout") : n == 4 ? Result.fail("rejected") : Result.ok(null);
                    }

                    @Override
                    public void close() {
                        closed.add("p" + process);
                    }
                };
            }

            @Override
            public String name() {
                return "fake";
            }

            @Override
            public void setup(Target target) {
            }

            @Override
            public void teardown(Target target) {
            }
        };
        InMemoryRecorder recorder = new InMemoryRecorder();
        Target target = new Target("nowhere:1", Map.of("n1", "nowhere:1"), Duration.ofSeconds(4),
                Duration.ofSeconds(1));
        w.run(new RunContext(target, recorder, 1, 2, Duration.ofSeconds(30)));

        List<Op> ops = recorder.history().ops();
        Op info = ops.stream().filter(o -> o.type() == OpType.INFO).findFirst().orElseThrow();
        assertThat(ops).filteredOn(o -> o.process() == info.process() && o.index() > info.index())
                .as("nothing more under the retired process").isEmpty();
        assertThat(opened).as("its slot opened a new client under process + concurrency")
                .contains("p" + (info.process() + 2));
        assertThat(closed).contains("p" + info.process());
        assertThat(ops).filteredOn(o -> o.type().isCompletion()).hasSize(6);
        // a failure (it certainly did not happen) retires nothing: only the info's process got a successor
        assertThat(opened).hasSize(3);
    }
}
