package io.zkchaos.harness.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.harness.run.Preload;
import io.zkchaos.harness.run.config.RunConfig;
import io.zkchaos.harness.run.config.StoragePart;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChaosSuiteTest {

    private static ChaosSuite suite(List<String> systems, List<String> versions, List<String> workloads,
                                    List<String> nemeses) {
        return suite(systems, versions, workloads, nemeses, Shard.all("test"));
    }

    private static ChaosSuite suite(List<String> systems, List<String> versions, List<String> workloads,
                                    List<String> nemeses, Shard shard) {
        return new ChaosSuite(systems, versions, workloads, nemeses, Duration.ofSeconds(12), 7, "local", 3,
                io.zkchaos.harness.cluster.SyncMode.AUTO, 1, 2, Path.of("target/s"), shard, ChaosSuite.times(""));
    }

    /** The 98 scenarios of docs/chaos-suite.md: 7 workloads under the 14 network and process nemeses. */
    static ChaosSuite networkAndProcessMatrix(Shard shard) {
        return suite(List.of("zookeeper"), List.of("3.9.5"), List.of("register", "set", "election",
                "election-curator", "election-naive", "fenced-writes", "fenced-writes-curator"), List.of("none",
                "kill-leader", "kill-random", "kill-majority", "pause-leader", "pause-random", "isolate-leader",
                "halves", "random-halves", "bridge", "majorities-ring", "client-partition", "slow-network", "mixed"),
                shard);
    }

    @Test
    void theSharesOfASplitMatrixAreTheMatrixEachScenarioOnce() {
        List<ChaosSuite.Scenario> matrix = networkAndProcessMatrix(Shard.all("test")).scenarios();
        assertThat(matrix).hasSize(98);
        List<ChaosSuite.Scenario> shares = new java.util.ArrayList<>();
        for (int k = 1; k <= 4; k++) {
            List<ChaosSuite.Scenario> share = networkAndProcessMatrix(new Shard(k, 4, "test")).share();
            assertThat(share).hasSizeBetween(20, 30);
            assertThat(matrix).containsSubsequence(share); // in the matrix's order
            shares.addAll(share);
        }
        assertThat(shares).containsExactlyInAnyOrderElementsOf(matrix).doesNotHaveDuplicates();
        assertThat(networkAndProcessMatrix(Shard.all("test")).share()).isEqualTo(matrix);
    }

    @Test
    void aTimesFileThatIsNotThereIsRefusedByItsProperty() {
        assertThatThrownBy(() -> ChaosSuite.times("no/such/times.tsv"))
                .hasMessageContaining("zkchaos.chaos.times=no/such/times.tsv: no such file");
    }

    @Test
    void theMatrixIsTheProductOfItsListsAndEachScenarioIsNamedInFull() {
        ChaosSuite s = suite(List.of("zookeeper"), List.of("3.9.5", "3.8.4"), List.of("set", "election"),
                List.of("none", "kill-leader"));
        assertThat(s.scenarios()).hasSize(8);
        assertThat(s.scenarios().get(0).toString()).isEqualTo("zookeeper 3.9.5: set under none");
        assertThat(s.scenarios().get(7).toString()).isEqualTo("zookeeper 3.8.4: election under kill-leader");
    }

    @Test
    void clientFaultsRunOnProcessClientsAndThoseAimedAtTheLeaderOnlyOnElections() {
        ChaosSuite s = suite(List.of("zookeeper"), List.of("3.9.5"), List.of("register", "sessions", "election"),
                List.of("none", "pause-random-client", "pause-leader-client", "kill-leader-client"));
        assertThat(s.scenarios()).extracting(ChaosSuite.Scenario::toString).containsExactly(
                "zookeeper 3.9.5: register under none",
                "zookeeper 3.9.5: sessions under none",
                "zookeeper 3.9.5: sessions under pause-random-client",
                "zookeeper 3.9.5: election under none",
                "zookeeper 3.9.5: election under pause-random-client",
                "zookeeper 3.9.5: election under pause-leader-client",
                "zookeeper 3.9.5: election under kill-leader-client");
    }

    @Test
    void eachScenarioRunsOnItsVersionWithTheCycleScaledToTheMainPhase() {
        ChaosSuite s = suite(List.of("zookeeper"), List.of("3.8.4"), List.of("election"), List.of("halves"));
        RunConfig c = s.config(s.scenarios().get(0));
        assertThat(c.cluster().zookeeper().text()).isEqualTo("3.8.4");
        assertThat(c.scenario()).isEqualTo("election-halves");
        assertThat(c.nemesis().faultFor()).isEqualTo(Duration.ofSeconds(3));
        assertThat(c.nemesis().healFor()).isEqualTo(Duration.ofMillis(2400));
        // the final heal is judged: the clients work on for the whole failover bound after it
        assertThat(c.timing().recover()).isEqualTo(c.checks().failoverBound());
        assertThat(c.seed()).isEqualTo(7);
    }

    @Test
    void theSuitesAclsGoToItsZooKeeperScenariosOnly() {
        ChaosSuite s = new ChaosSuite(List.of("zookeeper", "fle"), List.of("3.9.5"), List.of("set"),
                List.of("kill-leader"), Duration.ofSeconds(12), 7, "local", 3,
                io.zkchaos.harness.cluster.SyncMode.AUTO, 1, 2, Path.of("target/s"), Shard.all("test"),
                ChaosSuite.times(""), null, null, io.zkchaos.workloads.ZnodeAcls.PER_CLIENT, 0);
        assertThat(s.scenarios()).extracting(x -> x.system() + " " + s.config(x).load().acls())
                .containsExactlyInAnyOrder("zookeeper PER_CLIENT", "fle OPEN");
    }

    @Test
    void theSuitesSnapCountPreloadAndChurnGoToItsZooKeeperScenariosOnly() {
        ChaosSuite s = new ChaosSuite(List.of("zookeeper", "fle"), List.of("3.9.5"), List.of("set"),
                List.of("replace-disk", "kill-leader"), Duration.ofSeconds(12), 7, "local", 3,
                io.zkchaos.harness.cluster.SyncMode.AUTO, 1, 2, Path.of("target/s"), Shard.all("test"),
                ChaosSuite.times(""), 100, new Preload(2000, 4096), io.zkchaos.workloads.ZnodeAcls.OPEN, 3);
        RunConfig zk = s.config(s.scenarios().get(0));
        assertThat(zk.scenario()).isEqualTo("set-replace-disk");
        assertThat(zk.storage().snapCount()).isEqualTo(100);
        assertThat(zk.load().churn()).isEqualTo(3);
        assertThat(zk.load().preload()).isEqualTo(new Preload(2000, 4096));
        ChaosSuite.Scenario fle = s.scenarios().stream().filter(x -> x.system().equals("fle")
                && x.nemesis().equals("kill-leader")).findFirst().orElseThrow();
        assertThat(s.config(fle).storage()).isEqualTo(StoragePart.defaults());
    }

    @Test
    void unknownNamesAreRefusedByName() {
        assertThatThrownBy(() -> suite(List.of("etcd"), List.of("1"), List.of("set"), List.of("none")))
                .hasMessageContaining("unknown system 'etcd'; known: zookeeper, fle");
        assertThatThrownBy(() -> suite(List.of("zookeeper"), List.of("3.9.5"), List.of("sett"), List.of("none")))
                .hasMessageContaining("unknown workload 'sett'");
        assertThatThrownBy(() -> suite(List.of("zookeeper"), List.of("3.9.5"), List.of("set"), List.of("nope")))
                .hasMessageContaining("unknown nemesis 'nope'");
    }
}
