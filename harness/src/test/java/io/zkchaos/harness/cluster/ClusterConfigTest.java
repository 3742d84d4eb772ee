package io.zkchaos.harness.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClusterConfigTest {

    @Test
    void defaults() {
        ClusterConfig c = ClusterConfig.builder().build();
        assertThat(c.nodes()).isEqualTo(3);
        assertThat(c.version()).isEqualTo("3.9.5");
        assertThat(c.tickTime()).isEqualTo(Duration.ofMillis(200));
        assertThat(c.minSessionTimeout()).isEqualTo(Duration.ofMillis(400));
        assertThat(c.nodeNames()).containsExactly("n1", "n2", "n3");
        assertThat(c.quorumSize()).isEqualTo(2);
        assertThat(c.proxied()).isTrue();
        assertThat(c.runDirectory()).isAbsolute();
    }

    @Test
    void errorsNameTheField() {
        assertThatThrownBy(() -> ClusterConfig.builder().nodes(0).build()).hasMessageStartingWith("nodes:");
        assertThatThrownBy(() -> ClusterConfig.builder().version(" ").build()).hasMessageStartingWith("version:");
        assertThatThrownBy(() -> ClusterConfig.builder().tickTime(Duration.ZERO).build())
                .hasMessageStartingWith("tickTime:");
        assertThatThrownBy(() -> ClusterConfig.builder().syncLimit(0).build()).hasMessageStartingWith("syncLimit:");
        assertThatThrownBy(() -> ClusterConfig.builder().minSessionTimeout(Duration.ofMillis(100)).build())
                .hasMessageStartingWith("minSessionTimeout:");
        assertThatThrownBy(() -> ClusterConfig.builder().maxSessionTimeout(Duration.ofMillis(300)).build())
                .hasMessageStartingWith("maxSessionTimeout:");
        assertThatThrownBy(() -> ClusterConfig.builder().baseAddress("10.0.0.1").build())
                .hasMessageStartingWith("baseAddress:");
        assertThatThrownBy(() -> ClusterConfig.builder().serverJvmOptions(List.of("Xmx1g")).build())
                .hasMessageStartingWith("serverJvmOptions:");
        assertThatThrownBy(() -> ClusterConfig.builder().startTimeout(Duration.ofSeconds(-1)).build())
                .hasMessageStartingWith("startTimeout:");
    }
}
