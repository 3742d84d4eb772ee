package io.zkchaos.harness.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.harness.run.config.RunConfig;
import org.junit.jupiter.api.Test;

/** What each sync mode sets on which release, and the releases a proxied ensemble cannot run. */
class SyncModeAndVersionTest {

    private static ZooKeeperVersion v(String s) {
        return ZooKeeperVersion.parse(s).orElseThrow();
    }

    @Test
    void releaseNumbersParseAndCompare() {
        assertThat(v("3.5.3-beta").atLeast(3, 5, 3)).isTrue();
        assertThat(v("3.5.3-beta").atLeast(3, 5, 4)).isFalse();
        assertThat(v("3.10.0").atLeast(3, 9, 5)).isTrue();
        assertThat(ZooKeeperVersion.parse("master")).isEmpty();
    }

    @Test
    void eachModeSetsWhatItsReleaseReads() {
        assertThat(SyncMode.AUTO.jvmOptions(v("3.9.5"))).isEmpty();
        assertThat(SyncMode.SNAP.jvmOptions(v("3.5.10"))).containsExactly("-Dzookeeper.forceSnapshotSync=true");
        assertThat(SyncMode.DIFF.jvmOptions(v("3.9.5"))).contains("-Dzookeeper.commitLogCount=1000000",
                "-Dzookeeper.snapshotSizeFactor=1", "-Dzookeeper.preAllocSize=64");
        assertThat(SyncMode.TRUNC.jvmOptions(v("3.6.4"))).isEqualTo(SyncMode.DIFF.jvmOptions(v("3.6.4")));
        assertThatThrownBy(() -> SyncMode.SNAP.jvmOptions(v("3.4.14")))
                .hasMessageContaining("sync snap needs ZooKeeper 3.5.5 or later");
        // 3.5.3 and 3.5.4 declare zookeeper.forceSnapshotSync but never read it (a run on 3.5.4-beta saw DIFF only)
        assertThatThrownBy(() -> SyncMode.SNAP.jvmOptions(v("3.5.4-beta")))
                .hasMessageContaining("sync snap needs ZooKeeper 3.5.5 or later, the first to honour");
        assertThat(SyncMode.SNAP.jvmOptions(v("3.5.5"))).containsExactly("-Dzookeeper.forceSnapshotSync=true");
        assertThat(SyncMode.parse(" Diff ")).isEqualTo(SyncMode.DIFF);
        assertThatThrownBy(() -> SyncMode.parse("full"))
                .hasMessage("sync must be auto, diff, snap, trunc or snap-on-lag, got 'full'");
        assertThat(SyncMode.parse("snap-on-lag").jvmOptions(v("3.6.2"))).containsExactly("-Dzookeeper.snapshotSizeFactor=-1");
        assertThat(SyncMode.SNAP_ON_LAG.cliName()).isEqualTo("snap-on-lag");
        assertThatThrownBy(() -> SyncMode.SNAP_ON_LAG.jvmOptions(v("3.5.3-beta")))
                .hasMessageContaining("needs ZooKeeper 3.5.4 or later");
    }

    @Test
    void configurationsNameWhatARelaseCannotDo() {
        assertThatThrownBy(() -> ClusterConfig.builder().version("3.4.14").sync(SyncMode.SNAP).build())
                .hasMessageStartingWith("sync: sync snap needs ZooKeeper 3.5.5");
        assertThatThrownBy(() -> ClusterConfig.builder().version("3.4.2").build())
                .hasMessageContaining("quorumListenOnAllIPs came in 3.4.6");
        assertThat(ClusterConfig.builder().version("3.4.2").proxied(false).build().version().text()).isEqualTo("3.4.2");
        assertThat(ClusterConfig.builder().build().sync()).isEqualTo(SyncMode.AUTO);
        assertThatThrownBy(() -> RunConfig.builder().zookeeper("3.4.14").sync(SyncMode.SNAP).build())
                .hasMessageContaining("sync snap needs ZooKeeper 3.5.5");
        assertThat(RunConfig.builder().zookeeper("3.5.7").sync(SyncMode.SNAP).build().cluster().sync())
                .isEqualTo(SyncMode.SNAP);
    }
}
