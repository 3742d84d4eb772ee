package io.zkchaos.harness.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.codec.HistoryFiles;
import io.zkchaos.checkers.history.Operation;
import io.zkchaos.checkers.state.FinalStateChecker;
import io.zkchaos.nemesis.NemesisDriver;
import io.zkchaos.results.RunDirectory;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run of ZooKeeper 3.9.5 with {@code --snap-count 100}, a preloaded tree and the {@code replace-disk} nemesis: the
 * servers snapshot and roll their logs every few dozen transactions, and the follower whose data directory was
 * emptied syncs the whole tree by SNAP, serves again and holds everything the others hold.
 */
class ReplacedDiskIT {

    @TempDir
    Path store;

    @Test
    void aFollowerOnAnEmptyDiskSyncsBySnapshotAndHoldsTheCommittedData() throws Exception {
        StringWriter progress = new StringWriter();
        RunConfig config = RunConfig.builder().workload("set").nemesis("replace-disk").zookeeper("3.9.5")
                .snapCount(100).preload(new Preload(300, 2048)).timeLimit(Duration.ofSeconds(8))
                .faultFor(Duration.ofSeconds(3)).healFor(Duration.ofSeconds(2)).recover(Duration.ofSeconds(2))
                .concurrency(3).seed(11).out(store).build();
        RunOutcome outcome = new Runner(new PrintWriter(progress), Duration.ofSeconds(5)).run(config);
        RunDirectory dir = outcome.directory();
        assertThat(outcome.result().validity()).as(outcome.result().summary() + "\n" + progress)
                .isEqualTo(Validity.VALID);
        assertThat(progress.toString()).contains("preloaded 300 znodes of 2048 bytes");

        Runner.NemesisSchedule nemesis = Runner.NemesisSchedule.read(dir);
        List<NemesisDriver.Action> replaced = nemesis.actions().stream()
                .filter(a -> a.step().equals("start") && a.did() != null && a.did().fault().equals("replace-disk"))
                .toList();
        assertThat(replaced).as(progress.toString()).isNotEmpty();
        assertThat(replaced).allSatisfy(a -> assertThat(a.did().description()).endsWith("(serves)"));
        assertThat(nemesis.quorumPackets().getOrDefault("SNAP", 0L)).as("a SNAP sync per replaced disk")
                .isGreaterThanOrEqualTo(replaced.size());

        String node = replaced.get(replaced.size() - 1).did().nodes().get(0);
        Path data = dir.path().resolve(RunDirectory.NODES);
        assertThat(data.resolve(node).resolve("data/myid")).hasContent(node.substring(1));
        for (String n : List.of("n1", "n2", "n3")) {
            Path logs = data.resolve(n).resolve("data/version-2");
            // every ~50..100 transactions; the preload alone makes 300 (a replaced one snapshots the tree it synced)
            assertThat(count(logs, "snapshot.")).as(n + " snapshots").isGreaterThanOrEqualTo(n.equals(node) ? 1 : 3);
            assertThat(count(logs, "log.")).as(n + " logs").isGreaterThanOrEqualTo(n.equals(node) ? 1 : 3);
        }
        // the replaced node's final tree holds every preloaded znode (final-state, judged above, holds it equal to
        // the others'); nothing of the preload is in the history but these reads
        Map<String, Object> tree = finalTree(dir, node);
        assertThat(tree.keySet().stream().filter(p -> p.startsWith(Preload.PATH + "/"))).hasSize(300);
        assertThat(HistoryFiles.read(dir.historyFile()).operations().stream()
                .filter(op -> !op.f().equals(FinalStateChecker.READ_TREE))
                .map(op -> String.valueOf(op.key()))).noneMatch(k -> k.startsWith(Preload.PATH));
        LeftOvers.assertNoServerOf(dir.path());
    }

    private static long count(Path dir, String prefix) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().startsWith(prefix)).count();
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> finalTree(RunDirectory dir, String node) {
        Operation last = null;
        for (Operation op : HistoryFiles.read(dir.historyFile()).operations()) {
            if (op.f().equals(FinalStateChecker.READ_TREE) && op.isOk()
                    && node.equals(((Map<String, Object>) op.output()).get("node"))) {
                last = op;
            }
        }
        assertThat(last).as("a final tree of " + node).isNotNull();
        return (Map<String, Object>) ((Map<String, Object>) last.output()).get("znodes");
    }
}
