package io.zkchaos.workloads.register;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.gen.Gen;
import io.zkchaos.checkers.gen.Gens;
import io.zkchaos.workloads.Invocation;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The register workload's operation generator, without a server: seeded, unique values, cas on the last write. */
class RegisterGeneratorTest {

    private static final long SEED = 42L;

    @Test
    void sameSeedSameSequenceOtherSeedOtherSequence() {
        Gen<Invocation> gen = new RegisterWorkload("/r", 5, RegisterWorkload.ReadMode.SYNC).generator();
        List<Gens.Timed<Invocation>> a = Gens.preview(gen, SEED, 200);
        List<Gens.Timed<Invocation>> b = Gens.preview(gen, SEED, 200);
        List<Gens.Timed<Invocation>> c = Gens.preview(gen, SEED + 1, 200);
        assertThat(a).hasSize(200).isEqualTo(b).isNotEqualTo(c);
    }

    @Test
    void registerValuesAreUniqueAndCasExpectsTheLastValueWrittenToItsKey() {
        Gen<Invocation> gen = new RegisterWorkload("/r", 3, RegisterWorkload.ReadMode.PLAIN).generator();
        Map<String, Long> last = new HashMap<>();
        Set<Long> written = new HashSet<>();
        int cas = 0;
        for (Gens.Timed<Invocation> t : Gens.preview(gen, SEED, 500)) {
            Invocation op = t.value();
            assertThat(op.key()).matches("r[0-2]");
            switch (op.f()) {
                case "read" -> assertThat(op.value()).isNull();
                case "write" -> {
                    assertThat(written.add((Long) op.value())).isTrue();
                    last.put(op.key(), (Long) op.value());
                }
                case "cas" -> {
                    List<?> v = (List<?>) op.value();
                    assertThat(v.get(0)).isEqualTo(last.get(op.key()));
                    assertThat(written.add((Long) v.get(1))).isTrue();
                    last.put(op.key(), (Long) v.get(1));
                    cas++;
                }
                default -> throw new AssertionError("unexpected " + op);
            }
        }
        assertThat(cas).isGreaterThan(50);
    }
}
