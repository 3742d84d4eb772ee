package io.zkchaos.checkers.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class CheckerBenchTest {

    @Test
    void theGeneratedBenchmarkPrintsOneLinePerCheckWithTheRightVerdicts() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        List<CheckerBench.Measurement> m = CheckerBench.run(out, null, 20_000, 3, 2);
        assertThat(m).extracting(CheckerBench.Measurement::verdict).containsExactly("VALID", "INVALID");
        assertThat(m).allSatisfy(x -> {
            assertThat(x.operations()).isGreaterThan(19_000);
            assertThat(x.peakHeapBytes()).isPositive();
            assertThat(x.wallMillis()).isNotNegative();
        });
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertThat(text).contains("generated kv, valid").contains("generated kv, one stale read")
                .contains("cannot be linearized").contains("parallelism 2");
    }

    @Test
    void publishedHistoriesGetTheModelTheirDirectoryNames() {
        assertThat(CheckerBench.modelFor("knossos/cas-register/good/x.edn").name()).isEqualTo("cas-register");
        assertThat(CheckerBench.modelFor("knossos/multi-register/good/x.edn").name()).isEqualTo("multi-register");
        assertThat(CheckerBench.modelFor("knossos/mutex/bad/etcd.edn").name()).isEqualTo("mutex");
        assertThat(CheckerBench.modelFor("porcupine-kv/c01-ok.txt").name()).isEqualTo("kv");
        assertThat(CheckerBench.modelFor("elsewhere/x.edn")).isNull();
    }
}
