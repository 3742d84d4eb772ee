package io.zkchaos.harness.cluster.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.Zk;
import io.zkchaos.harness.cluster.lazyfs.LazyFs;
import io.zkchaos.harness.testing.Prerequisites;
import io.zkchaos.nemesis.DiskFault;
import io.zkchaos.nemesis.FaultRecord;
import io.zkchaos.nemesis.NemesisTarget;
import io.zkchaos.nemesis.faults.DiskFaults;
import java.time.Duration;
import java.util.Random;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A disk fault counts as felt only when the server met it: its lazy file system's counters over the fault's window.
 * A failing disk under a server that wrote nothing meanwhile is applied, not felt; one under a server that wrote is
 * felt, with the number of fsyncs that failed.
 */
class DiskFaultFeltIT extends ProcessesUnderRuns {

    @RegisterExtension
    static final ExecutionCondition LAZY_FS = Prerequisites.forClass("the lazy file system", LazyFs::unavailable);

    @Test
    void aFailingDiskIsFeltOnlyWhenTheServerWroteInItsWindow() throws Exception {
        ClusterConfig config = ClusterConfig.builder().nodes(3).lazyFs(true).runDirectory(runs.resolve("disk"))
                .startTimeout(Duration.ofSeconds(120)).build();
        try (LocalCluster cluster = LocalCluster.start(config)) {
            NemesisTarget target = cluster.nemesisTarget(new Random(3));
            String leader = cluster.leader().orElseThrow();

            // no client: the servers write nothing while the fault holds
            cluster.injectDiskFault(leader, new DiskFault.FsyncErrors());
            FaultRecord idle = new DiskFaults(target, "heal").repairDisks();
            assertThat(idle.felt()).singleElement().satisfies(f -> {
                assertThat(f.node()).isEqualTo(leader);
                assertThat(f.felt()).as(f.what()).isFalse();
                assertThat(f.what()).isEqualTo("failed no fsync (0 writes, 0 fsyncs in its window)");
            });

            // a write while every server's fsyncs fail: each logs the transaction and meets the fault
            cluster.awaitQuorum(Duration.ofSeconds(60));
            String follower = cluster.nodes().stream().filter(n -> !n.equals(leader)).findFirst().orElseThrow();
            cluster.injectDiskFault(follower, new DiskFault.FsyncErrors());
            try (ZooKeeper zk = Zk.connect(cluster.connectString(), Duration.ofSeconds(10))) {
                zk.create("/felt", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            } catch (org.apache.zookeeper.KeeperException e) {
                // the write may fail with the disk: what counts here is that the server tried to make it durable
            }
            FaultRecord felt = new DiskFaults(target, "heal").repairDisks();
            assertThat(felt.felt()).singleElement().satisfies(f -> {
                assertThat(f.node()).isEqualTo(follower);
                assertThat(f.felt()).as(f.what()).isTrue();
                assertThat(f.what()).matches("[1-9]\\d* fsyncs failed \\(\\d+ writes?, [1-9]\\d* fsyncs? in its window\\)");
            });
        }
    }
}
