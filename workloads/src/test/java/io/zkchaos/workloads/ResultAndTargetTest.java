package io.zkchaos.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.checkers.history.OpType;
import java.time.Duration;
import java.util.Map;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.Test;

class ResultAndTargetTest {

    @Test
    void indeterminateErrorsAreInfoWithAStableName() {
        assertThat(Outcomes.indeterminate(new KeeperException.ConnectionLossException()))
                .isEqualTo(Result.info("connection-loss"));
        assertThat(Outcomes.indeterminate(new KeeperException.SessionExpiredException()).error())
                .isEqualTo("session-expired");
        assertThat(Outcomes.describe(KeeperException.create(KeeperException.Code.REQUESTTIMEOUT)))
                .isEqualTo("request-timeout");
    }

    @Test
    void infoAndUnsentFailsRetireTheProcessOtherFailsDoNot() {
        assertThat(Result.info("connection-loss").retiresProcess()).isTrue();
        assertThat(Result.failUnsent("connection-loss").retiresProcess()).isTrue();
        assertThat(Result.failUnsent("connection-loss").type()).isEqualTo(OpType.FAIL);
        assertThat(Result.fail("bad-version").retiresProcess()).isFalse();
        // Retirement is a field, not a reading of the message: a fail whose text merely looks alike does not retire.
        assertThat(Result.fail("connection-loss before the write was sent").retiresProcess()).isFalse();
        assertThatThrownBy(() -> new Result(OpType.INFO, null, "x", false)).hasMessageContaining("always retires");
        assertThat(Result.ok(1L).retiresProcess()).isFalse();
        assertThatThrownBy(() -> new Result(OpType.INVOKE, null, null, false)).hasMessageContaining("ok, fail or info");
    }

    @Test
    void targetValidationNamesTheField() {
        assertThatThrownBy(() -> Target.of(" ", Map.of("n1", "x:1"))).hasMessageContaining("connectString");
        assertThatThrownBy(() -> Target.of("x:1", Map.of())).hasMessageContaining("servers");
        assertThatThrownBy(() -> Target.of("x:1", Map.of("n1", "x:1")).withTimeouts(Duration.ZERO,
                Duration.ofSeconds(1))).hasMessageContaining("sessionTimeout");
        assertThatThrownBy(() -> new RunContext(Target.of("x:1", Map.of("n1", "x:1")),
                new io.zkchaos.checkers.history.InMemoryRecorder(), 1, 0, Duration.ofSeconds(1)))
                .hasMessageContaining("concurrency");
    }

    @Test
    void znodeValuesRoundTrip() {
        assertThat(Znodes.decode(Znodes.encode(42L))).isEqualTo(42L);
        assertThat(Znodes.decode(new byte[0])).isNull();
    }

    @Test
    void everyNamedWorkloadIsCreatedWithItsNameAndUnknownNamesAreListed() {
        for (String name : Workloads.NAMES) {
            Workload w = Workloads.create(name, WorkloadOptions.defaults());
            assertThat(w.name()).isEqualTo(name);
        }
        assertThatThrownBy(() -> Workloads.create("bogus", WorkloadOptions.defaults()))
                .hasMessageContaining("unknown workload 'bogus'").hasMessageContaining("fenced-writes");
        assertThatThrownBy(() -> WorkloadOptions.defaults().withRoot("rel"))
                .hasMessageContaining("root");
        assertThatThrownBy(() -> WorkloadOptions.defaults().withRate(-1))
                .hasMessageContaining("rate");
    }

    @Test
    void aRateStaggersTheOperationsWithThatMeanAndKeepsThemTheSame() {
        io.zkchaos.workloads.set.SetWorkload w = new io.zkchaos.workloads.set.SetWorkload("/s", false);
        var fast = io.zkchaos.checkers.gen.Gens.preview(w.operations(), 9L, 200);
        w.withRate(100);
        var paced = io.zkchaos.checkers.gen.Gens.preview(w.operations(), 9L, 200);
        assertThat(paced.stream().map(t -> t.value()).toList())
                .isEqualTo(fast.stream().map(t -> t.value()).toList());
        assertThat(fast.get(199).atNanos()).isZero();
        // 200 ops at a mean of 10 ms apart: about 2 s
        assertThat(paced.get(199).atNanos()).isBetween(1_500_000_000L, 2_500_000_000L);
    }
}
