package io.zkchaos.checkers.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The recorder benchmark records and reads back everything, and prints its two lines. No throughput floor: the
 * figure depends on the machine and its load, so it is printed by {@code ./zkchaos bench recorder}, never asserted.
 */
class RecorderBenchTest {

    @Test
    void recordsEveryEntryFromEveryThreadAndPrintsTheFigures() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        RecorderBench.Measurement m = RecorderBench.run(new PrintStream(bytes, true, StandardCharsets.UTF_8), 4,
                2_000);
        assertThat(m.entries()).isEqualTo(16_000);
        assertThat(m.readEntries()).as("entries read back").isEqualTo(16_000);
        assertThat(m.readOperations()).as("complete pairs read back").isEqualTo(8_000);
        assertThat(m.bytes()).isPositive();
        assertThat(m.entriesPerSecond()).isPositive();
        assertThat(bytes.toString(StandardCharsets.UTF_8).lines().toList()).satisfiesExactly(
                l -> assertThat(l).matches("JsonLinesRecorder: 16000 entries from 4 threads in [0-9.]+ s = "
                        + "[0-9,]+ entries/s \\([0-9.]+ MB\\)"),
                l -> assertThat(l).matches("HistoryFiles.read: 16000 entries in [0-9.]+ s \\([0-9.]+ s CPU\\) = "
                        + "[0-9,]+ entries/s"));
    }

    @Test
    void rejectsNonsense() {
        assertThatThrownBy(() -> RecorderBench.run(System.out, 0, 10)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 1 thread");
        assertThatThrownBy(() -> RecorderBench.main(new String[] {"--pears", "3"}))
                .hasMessageContaining("unknown option --pears");
    }
}
