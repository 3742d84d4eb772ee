package io.zkchaos.harness.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.harness.run.config.RunConfig;
import io.zkchaos.harness.run.config.WorkloadPart;
import io.zkchaos.harness.suite.ScenarioTimes;
import io.zkchaos.harness.suite.SuiteLedger;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Usage errors of run, scenarios and bench: exit 2 and a message naming the problem; no cluster is started. */
class RunAndBenchCommandTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
    }

    @Test
    void scenariosListsEveryWorkloadAndNemesis() {
        assertThat(run("scenarios")).isZero();
        assertThat(out.toString()).contains("register", "set", "election-curator", "fenced-writes")
                .contains("kill-leader", "majorities-ring", "client-partition", "slow-network", "mixed");
    }

    @Test
    void scenariosSaysWhichWorkloadsEachSystemOffersAndListsTheBugFlags() {
        assertThat(run("scenarios")).isZero();
        assertThat(out.toString()).contains("Workloads of --system zookeeper", "Workloads of --system fle")
                .contains("checked by no-lost-commit, log-prefix, single-leader")
                .contains("elect-without-zxid", "ack-before-durable", "mix-election-epochs")
                .contains("kill-all");
    }

    @Test
    void runRejectsABugWithoutTheFleSystemAndAnUnknownBug() {
        assertThat(run("run", "--workload", "set", "--bug", "ack-before-durable")).isEqualTo(2);
        assertThat(err.toString()).contains("only the fle nodes have bug flags (--system fle)");
        assertThat(run("run", "--system", "fle", "--workload", "set", "--bug", "sloppy")).isEqualTo(2);
        assertThat(err.toString()).contains("unknown bug 'sloppy': known bugs are elect-without-zxid");
        assertThat(run("run", "--system", "fle", "--workload", "election")).isEqualTo(2);
        assertThat(err.toString()).contains("unknown workload 'election' for system fle; it offers: register, set");
    }

    @Test
    void runRejectsAnUnknownWorkloadNamingTheKnownOnes() {
        assertThat(run("run", "--workload", "bogus", "--out", "target/never")).isEqualTo(2);
        assertThat(err.toString()).contains("unknown workload 'bogus'").contains("register");
    }

    @Test
    void runRejectsAnUnknownNemesisAndABadSize() {
        assertThat(run("run", "--workload", "set", "--nemesis", "gremlins")).isEqualTo(2);
        assertThat(err.toString()).contains("unknown nemesis 'gremlins'");
        assertThat(run("run", "--workload", "set", "--nodes", "4")).isEqualTo(2);
        assertThat(err.toString()).contains("nodes must be 3 or 5");
        assertThat(run("run", "--workload", "set", "--reads", "psychic")).isEqualTo(2);
        assertThat(err.toString()).contains("--reads must be plain or sync");
        assertThat(run("run", "--workload", "set", "--time-limit", "soon")).isEqualTo(2);
        assertThat(run("run", "--workload", "set", "--nemesis", "mixed", "--compose", "0")).isEqualTo(2);
        assertThat(err.toString()).contains("error: compose must be at least 1");
        assertThat(run("run", "--workload", "set", "--nemesis", "halves", "--compose", "2")).isEqualTo(2);
        assertThat(err.toString()).contains("error: --compose 2 asks for up to 2 faults at once, each of another "
                + "family, but nemesis 'halves' has faults of 1 family (network)");
        assertThat(run("run", "--workload", "set", "--nemesis", "mixed", "--without", "clock,clocks")).isEqualTo(2);
        assertThat(err.toString()).contains("error: --without: unknown fault family 'clocks'; known: network, crash, "
                + "pause, clock, disk, client");
        assertThat(run("run", "--workload", "set", "--nemesis", "halves", "--without", "clock")).isEqualTo(2);
        assertThat(err.toString()).contains("error: without: nemesis 'halves' has no clock faults to leave out (its "
                + "families: network)");
    }

    @Test
    void runLeavesFamiliesOutOfMixedAsTheCommandLineSays() {
        RunConfig c = RunCommand.configOf(List.of("--workload", "register", "--nemesis", "mixed", "--without",
                "clock,disk", "--seed", "3"));
        assertThat(c.nemesis().withoutNames()).containsExactly("clock", "disk");
        assertThat(c.saved().nemesis().without()).containsExactly("clock", "disk");
        assertThat(RunCommand.configOf(List.of("--workload", "register", "--nemesis", "mixed")).nemesis().without())
                .isEmpty();
    }

    @Test
    void runRejectsBadClientOptionsNamingThem() {
        assertThat(run("run", "--workload", "election", "--clients", "fibers")).isEqualTo(2);
        assertThat(err.toString()).contains("--clients must be thread or process, got 'fibers'");
        assertThat(run("run", "--workload", "election", "--nemesis", "pause-leader-client")).isEqualTo(2);
        assertThat(err.toString()).contains("nemesis 'pause-leader-client' acts on client processes")
                .contains("(--clients process)");
        assertThat(run("run", "--workload", "set", "--clients", "process")).isEqualTo(2);
        assertThat(err.toString()).contains("clients can be processes only for election");
        assertThat(run("run", "--workload", "election", "--hold", "2s..1s")).isEqualTo(2);
        assertThat(err.toString()).contains("leadership hold must be 0 <= min <= max");
        assertThat(run("run", "--workload", "election", "--hold", "1s..2s..3s")).isEqualTo(2);
        assertThat(err.toString()).contains("--hold must be MIN or MIN..MAX");
        assertThat(run("run", "--workload", "fenced-writes", "--write-every", "0s")).isEqualTo(2);
        assertThat(run("run", "--workload", "election", "--max-overlap", "later")).isEqualTo(2);
        assertThat(err.toString()).contains("'later' is not a duration");
    }

    @Test
    void runRejectsABadAclNamingIt() {
        assertThat(run("run", "--workload", "set", "--acl", "closed")).isEqualTo(2);
        assertThat(err.toString()).contains("--acl must be open or per-client, got 'closed'");
        assertThat(run("run", "--system", "fle", "--workload", "set", "--acl", "per-client")).isEqualTo(2);
        assertThat(err.toString()).contains("acl: the fle nodes hold a key-value store without ACLs");
    }

    @Test
    void runRejectsABadSnapCountPreloadOrChurnNamingIt() {
        assertThat(run("run", "--workload", "set", "--snap-count", "1")).isEqualTo(2);
        assertThat(err.toString()).contains("snap-count must be at least 2");
        assertThat(run("run", "--workload", "set", "--snap-count", "many")).isEqualTo(2);
        assertThat(err.toString()).contains("--snap-count");
        assertThat(run("run", "--system", "fle", "--workload", "set", "--snap-count", "100")).isEqualTo(2);
        assertThat(err.toString()).contains("snap-count: the fle nodes take no snapshots");
        assertThat(run("run", "--workload", "set", "--preload", "2000")).isEqualTo(2);
        assertThat(err.toString()).contains("preload must be COUNTxBYTES (e.g. 2000x4096), got '2000'");
        assertThat(run("run", "--workload", "set", "--preload", "100000x1000")).isEqualTo(2);
        assertThat(err.toString()).contains("preload: 100000 x 1000 bytes is 95 MiB; at most 32 MiB in all");
        assertThat(run("run", "--system", "fle", "--workload", "set", "--preload", "10x10")).isEqualTo(2);
        assertThat(err.toString()).contains("preload: the fle nodes hold a key-value store, not znodes");
        assertThat(run("run", "--workload", "set", "--churn", "65")).isEqualTo(2);
        assertThat(err.toString()).contains("churn must be 0..64 lanes of short sessions, got 65");
        assertThat(run("run", "--system", "fle", "--workload", "set", "--churn", "2")).isEqualTo(2);
        assertThat(err.toString()).contains("churn: the fle nodes have no sessions and no ephemerals");
    }

    @Test
    void runHelpShowsTheDefaultsOfTheRunConfigurationsParts() {
        assertThat(run("run", "--help")).isZero();
        String help = out.toString().replaceAll("\\s+", " ");
        var w = WorkloadPart.defaults();
        assertThat(help).contains("znodes the writers change (default: " + w.options().keys() + ")")
                .contains("client processes (default: " + w.concurrency() + ")")
                .contains("client session timeout (default: 4s)")
                .contains("length of the main phase (default: 60s)")
                .contains("the faults (default: none)")
                .contains("what runs the ensemble: local, docker or ssh (on the hosts of --hosts FILE) (default: local)")
                .contains("every heal that lasts that long (default: 10s)")
                .contains("fenced-writes workloads only (default: thread)")
                .contains("drawn from the seed (default: 300ms..").contains("1500ms)")
                .contains("before it writes it (default: 50ms)");
    }

    @Test
    void checkNamesASettingTheCheckerDoesNotRead() {
        assertThat(run("check", "--checker", "log-prefix", "--strict", "no-such-file.jsonl")).isEqualTo(2);
        assertThat(err.toString()).contains("checker log-prefix does not take --strict; it takes no options");
        assertThat(run("check", "--checker", "no-lost-commit", "--max-overlap", "1s", "x.jsonl")).isEqualTo(2);
        assertThat(err.toString()).contains("checker no-lost-commit does not take --max-overlap");
        assertThat(run("check", "--checker", "single-leader", "--max-overlap", "soon", "x.jsonl")).isEqualTo(2);
        assertThat(err.toString()).contains("'soon' is not a duration");
    }

    @Test
    void benchRejectsAnUnknownBenchmark() {
        assertThat(run("bench", "everything")).isEqualTo(2);
        assertThat(err.toString()).contains("unknown benchmark 'everything'").contains("checker")
                .contains("recorder").contains("read-model");
    }

    @Test
    void theCheckersModuleBenchmarksRunFromTheCommandLine() {
        // They print their figures on standard output; what they measure is tested in the checkers module.
        assertThat(run("bench", "recorder", "--threads", "2", "--pairs", "100")).as(err.toString()).isZero();
        assertThat(run("bench", "read-model", "--ops", "300")).as(err.toString()).isZero();
    }

    @Test
    void benchElectionGetsTheRunsTheUserGave() {
        // --runs is also the stalled-leader bench's option, so picocli takes it: it must reach the election bench
        assertThat(run("bench", "election", "--runs", "0")).isEqualTo(2);
        assertThat(err.toString()).contains("error: bench election: --runs, --clients and --seconds take 1 or more; "
                + "got runs 0");
    }

    @Test
    void benchProxyRejectsABadOptionNamingIt() {
        assertThat(run("bench", "proxy", "--window", "soon")).isEqualTo(2);
        assertThat(err.toString()).contains("error: bench proxy: --window: 'soon' is not a positive duration");
        assertThat(run("bench", "proxy", "--traffic", "carrier-pigeon")).isEqualTo(2);
        assertThat(err.toString()).contains("unknown kind 'carrier-pigeon'").contains("request-response");
        assertThat(run("bench", "proxy", "--connections", "0")).isEqualTo(2);
        assertThat(err.toString()).contains("--connections: '0' is not a positive whole number");
    }

    @Test
    void benchSuiteMergesTheLedgersOfShardsAndWritesTheirExpectedTimes(@TempDir Path dir) {
        for (int k = 1; k <= 2; k++) {
            Path store = dir.resolve("shard-" + k);
            String suite = "2026010" + k + "T000000Z";
            String workload = k == 1 ? "set" : "register";
            SuiteLedger.append(SuiteLedger.file(store, suite), new SuiteLedger.Entry(suite, "zookeeper 3.9.5: "
                    + workload + " under halves", "zookeeper", "3.9.5", workload, "halves", "valid", 0, 20_000L + k,
                    null, null, ""));
        }
        Path times = dir.resolve("times.tsv");
        assertThat(run("bench", "suite", "--times-file", times.toString(), dir.resolve("shard-1").toString(),
                dir.resolve("shard-2").toString())).as(err.toString()).isZero();
        assertThat(out.toString()).contains("| 20260101T000000Z | 1 | 1 |").contains("| 20260102T000000Z | 1 | 1 |")
                .contains("expected times of 2 scenario(s) written to " + times);
        assertThat(ScenarioTimes.read(times).rows()).extracting(ScenarioTimes.Row::workload)
                .containsExactly("register", "set");

        assertThat(run("bench", "suite", "--times-file", times.toString(), dir.resolve("shard-3").toString()))
                .isEqualTo(2);
        assertThat(err.toString()).contains("shard-3 is neither a suite ledger");
    }

    @Test
    void mutationsRefusesABadShardNamingTheOption() {
        assertThat(run("mutations", "--shard", "5/4")).isEqualTo(2);
        assertThat(err.toString()).contains("error: --shard=5/4: the shard must be 1 to 4");
        assertThat(run("mutations", "--quick", "--shard", "3/3")).isEqualTo(2);
        assertThat(err.toString()).contains("--shard=3/3: 2 scenario(s) fill only 2 shard(s)");
    }
}
