package io.zkchaos.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterLogTest {

    @TempDir
    Path dir;

    @Test
    void observationsReadBackInOrderAndACutOffLastLineIsDropped() throws Exception {
        Path file = dir.resolve(RunDirectory.CLUSTER);
        ServerObservation a = new ServerObservation(5, "n1", "leader", 1, "running", null);
        ServerObservation b = new ServerObservation(9, "n2", "unreachable", -1, "paused", "paused");
        try (ClusterLog.Appender log = ClusterLog.append(file)) {
            log.write(a);
            log.write(b);
        }
        Files.writeString(file, "{\"time\":12,\"node\":\"n3\",\"mo", StandardOpenOption.APPEND);
        assertThat(ClusterLog.read(file)).containsExactly(a, b);
        assertThat(ClusterLog.read(dir.resolve("none.jsonl"))).isEmpty();
    }

    @Test
    void aMalformedLineInTheMiddleNamesItsLine() throws Exception {
        Path file = dir.resolve(RunDirectory.CLUSTER);
        Files.writeString(file, "{\"time\":1,\"node\":\"n1\",\"mode\":\"leader\",\"epoch\":1}\nnot json\n"
                + "{\"time\":2,\"node\":\"n1\",\"mode\":\"leader\",\"epoch\":1}\n");
        assertThatThrownBy(() -> ClusterLog.read(file)).hasMessageContaining("line 2");
    }

    @Test
    void sameAsIgnoresTheTime() {
        ServerObservation a = new ServerObservation(5, "n1", "leader", 1, "running", null);
        assertThat(a.sameAs(new ServerObservation(99, "n1", "leader", 1, "running", "x"))).isTrue();
        assertThat(a.sameAs(new ServerObservation(99, "n1", "leader", 2, "running", null))).isFalse();
    }
}
