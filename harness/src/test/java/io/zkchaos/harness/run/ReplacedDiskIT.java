package io.zkchaos.harness.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.codec.HistoryFiles;
import io.zkchaos.checkers.history.Operation;
import io.zkchaos.checkers.state.FinalStateChecker;
import io.zkchaos.harness.run.config.RunConfig;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
                .snapCount(100).preload(new Preload(300, 2048)).timeLimit(Duration.ofSeconds(6))
                .faultFor(Duration.ofSeconds(2)).healFor(Duration.ofSeconds(1)).recover(Duration.ofSeconds(2))
                // the claim is the snapshot sync and the data it brings; a client retired by the kill may not be
                // back within 2 s of the heal on a loaded machine (a rehearsal at load 6 had no add after it), nor
                // within the fault's 2 s (a rehearsal with two busy loops beside the build had no add under it)
                .relax(List.of("acked-after-heal", "acked-under-fault"))
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
        // a replacement begun late may still wait for its node to serve when the main phase ends (its wait is then
        // interrupted, and the final heal brings the node back): the ones that served are judged
        List<NemesisDriver.Action> served = replaced.stream()
                .filter(a -> a.did().description().endsWith("(serves)")).toList();
        assertThat(served).as(progress.toString()).isNotEmpty();
        assertThat(nemesis.quorumPackets().getOrDefault("SNAP", 0L)).as("a SNAP sync per replaced disk that served")
                .isGreaterThanOrEqualTo(served.size());

        String node = served.get(served.size() - 1).did().nodes().get(0);
        Path data = dir.path().resolve(RunDirectory.NODES);
        // The replaced node itself says it took a snapshot from its leader after the preload (a start in a new epoch
        // can bring a SNAP of the empty tree, at zxid counter 0; a node restarted on its data gets a DIFF).
        assertThat(snapshotsTakenAfter(data.resolve(node).resolve("server.log"), 300)).as(node + " synced by SNAP")
                .isNotEmpty();
        assertThat(data.resolve(node).resolve("data/myid")).hasContent(node.substring(1));
        // Every node whose disk was emptied, served or not (a replacement begun late, still waiting when the phase
        // ended, emptied its disk too: seen at load, n1 then held 2 snapshots), started its files anew.
        List<String> emptied = replaced.stream().map(a -> a.did().nodes().get(0)).toList();
        for (String n : List.of("n1", "n2", "n3")) {
            Path logs = data.resolve(n).resolve("data/version-2");
            // every ~50..100 transactions; the preload alone makes 300 (a replaced one snapshots the tree it synced)
            int least = emptied.contains(n) ? 1 : 3;
            assertThat(count(logs, "snapshot.")).as(n + " snapshots (disks emptied: " + emptied + ")")
                    .isGreaterThanOrEqualTo(least);
            assertThat(count(logs, "log.")).as(n + " logs (disks emptied: " + emptied + ")")
                    .isGreaterThanOrEqualTo(least);
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

    /** The zxids of the SNAP syncs a server's log reports ({@code Getting a snapshot from leader 0x...}, 3.4 to 3.9). */
    private static List<Long> snapshotsTakenAfter(Path log, long counter) throws IOException {
        Matcher m = SNAPSHOT_FROM_LEADER.matcher(Files.readString(log));
        List<Long> zxids = new java.util.ArrayList<>();
        while (m.find()) {
            long zxid = Long.parseUnsignedLong(m.group(1), 16);
            if ((zxid & 0xffffffffL) >= counter) {
                zxids.add(zxid);
            }
        }
        return zxids;
    }

    private static final Pattern SNAPSHOT_FROM_LEADER = Pattern.compile("Getting a snapshot from leader 0x([0-9a-f]+)");

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
