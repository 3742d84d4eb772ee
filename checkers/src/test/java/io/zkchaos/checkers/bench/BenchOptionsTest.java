package io.zkchaos.checkers.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class BenchOptionsTest {

    @Test
    void readsTheGivenOptionsAndDefaultsTheOthers() {
        BenchOptions o = BenchOptions.parse(new String[] {"--ops", "500", "--data", "d"}, "--ops", "--seed", "--data");
        assertThat(o.intValue("--ops", 1)).isEqualTo(500);
        assertThat(o.longValue("--seed", 42)).isEqualTo(42);
        assertThat(o.path("--data")).isEqualTo(Path.of("d"));
        assertThat(o.text("--name", "x")).isEqualTo("x");
    }

    @Test
    void aWrongOptionIsNamed() {
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--opz", "1"}, "--ops", "--seed"))
                .hasMessage("unknown option --opz (known: --ops, --seed)");
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--ops"}, "--ops"))
                .hasMessage("option --ops needs a value");
        BenchOptions o = BenchOptions.parse(new String[] {"--ops", "many"}, "--ops");
        assertThatThrownBy(() -> o.intValue("--ops", 1)).hasMessageStartingWith("option --ops: cannot read 'many'");
    }
}
