package io.zkchaos.harness.cluster.ssh;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.Zk;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SshSmokeIT {
    @TempDir
    Path dir;

    @Test
    void smoke() throws Exception {
        try (NamespaceHosts hosts = NamespaceHosts.create(3, dir)) {
            try (SshCluster c = SshCluster.start(ClusterConfig.builder().nodes(3).runDirectory(dir.resolve("run"))
                    .build(), hosts.settings())) {
                System.out.println("SUMMARY " + c.summary() + " leader " + c.leader());
                try (ZooKeeper zk = Zk.connect(c.connectString(), Duration.ofSeconds(10))) {
                    assertThat(Zk.write(zk, "/a")).isTrue();
                }
            }
        }
    }
}
