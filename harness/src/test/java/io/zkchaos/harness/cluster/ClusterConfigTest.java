package io.zkchaos.harness.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.fle.Bug;
import io.zkchaos.fle.Bugs;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClusterConfigTest {

    @Test
    void defaults() {
        ClusterConfig c = ClusterConfig.builder().build();
        assertThat(c.nodes()).isEqualTo(3);
        assertThat(c.version().text()).isEqualTo("3.9.5");
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

    @Test
    void zooKeeperIsTheDefaultSystemAndOnlyTheFleNodesHaveBugFlags() {
        assertThat(ClusterConfig.builder().build().system()).isEqualTo(SystemUnderTest.ZOOKEEPER);
        assertThat(ClusterConfig.builder().build().systemSummary()).isEqualTo("ZooKeeper 3.9.5");
        ClusterConfig fle = ClusterConfig.builder().system(SystemUnderTest.FLE)
                .bugs(Bugs.of(Bug.ACK_BEFORE_DURABLE)).build();
        assertThat(fle.bugs().on(Bug.ACK_BEFORE_DURABLE)).isTrue();
        assertThat(fle.systemSummary()).isEqualTo("fle nodes (bugs: ack-before-durable)");
        assertThatThrownBy(() -> ClusterConfig.builder().bugs(Bugs.of(Bug.NO_FINALIZE_WAIT)).build())
                .hasMessageStartingWith("bugs:").hasMessageContaining("only the fle nodes have bug flags");
    }

    @Test
    void systemsAreNamedAsTheCommandLineTakesThem() {
        assertThat(SystemUnderTest.parse("FLE")).isEqualTo(SystemUnderTest.FLE);
        assertThatThrownBy(() -> SystemUnderTest.parse("etcd"))
                .hasMessage("unknown system 'etcd'; known: zookeeper, fle");
        assertThat(SystemUnderTest.FLE.workloads()).extracting(w -> w.name()).containsExactly("register", "set");
        assertThatThrownBy(() -> SystemUnderTest.FLE.requireWorkload("election"))
                .hasMessage("unknown workload 'election' for system fle; it offers: register, set");
    }
}
