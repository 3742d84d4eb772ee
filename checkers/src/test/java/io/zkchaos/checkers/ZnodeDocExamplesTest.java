package io.zkchaos.checkers;

import static io.zkchaos.checkers.HistoryBuilder.map;
import static io.zkchaos.checkers.ZnodeHistories.asked;
import static io.zkchaos.checkers.ZnodeHistories.child;
import static io.zkchaos.checkers.ZnodeHistories.event;
import static io.zkchaos.checkers.ZnodeHistories.got;
import static io.zkchaos.checkers.ZnodeHistories.m;
import static io.zkchaos.checkers.ZnodeHistories.open;
import static io.zkchaos.checkers.ZnodeHistories.partitioned;
import static io.zkchaos.checkers.ZnodeHistories.ops;
import static io.zkchaos.checkers.ZnodeHistories.read;
import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.DocExamplesTest.Example;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The verdict blocks of {@code docs/sessions-sequential-multi.md} are, in order, what the catalog's checkers print for
 * these histories (as {@link DocExamplesTest} holds checkers.md to its examples). When a checker's wording changes,
 * this fails and shows the new text to paste into the doc.
 */
class ZnodeDocExamplesTest {

    private static final Path DOC = Path.of(System.getProperty("zkchaos.repo.root", "..")).resolve(
            "docs/sessions-sequential-multi.md");

    // ---- sessions ----

    /** p1 creates e1-1 and closes; p2 then reads. */
    private static HistoryBuilder closed() {
        HistoryBuilder h = open(new HistoryBuilder(), 1, "0x1", 0);
        h.invoke(1, "create", "e1-1", null, 10).ok(1, null, 11);
        h.invoke(1, "close", null, 30).ok(1, null, 31);
        event(h, 1, "Disconnected", 31);
        event(h, 1, "Closed", 31);
        return open(h, 2, "0x2", 40);
    }

    // ---- sequential ----

    private static HistoryBuilder finalRead(HistoryBuilder h, String node, long ms, String... children) {
        return h.okOp(1_000_000, "read", null, map("node", node, "children", map("p0", List.of(children))), ms);
    }

    static List<Example> examples() {
        List<Example> all = new ArrayList<>();
        // sessions: p1 closes, p3 is closed by another handle (its client then told Expired); nobody sees either's
        // ephemerals afterwards
        HistoryBuilder good = closed();
        open(good, 3, "0x3", 50);
        good.invoke(3, "create", "e3-1", null, 60).ok(3, null, 61);
        good.invoke(3, "expire", null, 70).ok(3, null, 71);
        event(good, 3, "Disconnected", 71);
        good.invoke(3, "create", "e3-2", null, 72).info(3, 90);
        event(good, 3, "Expired", 95);
        all.add(new Example("session-guarantees", Map.of(), read(good, 2, 100, map()).build()));
        // a read after the close still lists the closed session's ephemeral
        all.add(new Example("session-guarantees", Map.of(), read(closed(), 2, 50, map("e1-1", "0x1")).build()));
        // cut off at 1.001 s for 5.5 s, timeout 4 s: a read at 8.5 s still lists its ephemeral
        all.add(new Example("session-guarantees", Map.of(), read(partitioned(6500), 2, 8500, map("e1-1", "0x1"))
                .build()));
        // the same with a cut of 3.5 s: the session may have lived on, not judged
        all.add(new Example("session-guarantees", Map.of(), read(partitioned(4500), 2, 9000, map("e1-1", "0x1"))
                .build()));
        // a silent reconnection: after another handle's close, a create succeeds (on a new session) and the new
        // session's SyncConnected comes after Expired
        HistoryBuilder silent = open(new HistoryBuilder(), 1, "0x1", 0);
        silent.invoke(1, "expire", null, 20).ok(1, null, 21);
        event(silent, 1, "Disconnected", 21);
        event(silent, 1, "Expired", 25);
        event(silent, 1, "SyncConnected", 26);
        silent.invoke(1, "create", "e1-1", null, 30).ok(1, null, 31);
        open(silent, 2, "0x2", 40);
        all.add(new Example("session-guarantees", Map.of(), read(silent, 2, 50, map("e1-1", "0x7")).build()));

        // sequential: two creates in real-time order, one concurrent, one indeterminate and absent
        HistoryBuilder seq = new HistoryBuilder()
                .invoke(1, "create", "p0", asked(1, "persistent"), 0).ok(1, got(1, "persistent", 0), 1)
                .invoke(2, "create", "p0", asked(2, "persistent"), 2)
                .invoke(1, "create", "p0", asked(3, "persistent"), 3)
                .ok(1, got(3, "persistent", 2), 4).ok(2, got(2, "persistent", 1), 5)
                .invoke(3, "create", "p0", asked(4, "ephemeral"), 6).info(3, 7);
        finalRead(seq, "n1", 20, child(1, 0), child(2, 1), child(3, 2));
        all.add(new Example("sequential-znodes", Map.of(), finalRead(seq, "n2", 21, child(1, 0), child(2, 1),
                child(3, 2)).build()));
        // the indeterminate create present twice
        HistoryBuilder twice = new HistoryBuilder()
                .invoke(1, "create", "p0", asked(1, "persistent"), 0).ok(1, got(1, "persistent", 0), 1)
                .invoke(3, "create", "p0", asked(4, "persistent"), 6).info(3, 7);
        all.add(new Example("sequential-znodes", Map.of(), finalRead(twice, "n1", 20, child(1, 0), child(4, 1),
                child(4, 2)).build()));
        // a create begun after another was acknowledged, numbered lower
        HistoryBuilder order = new HistoryBuilder()
                .invoke(1, "create", "p0", asked(1, "persistent"), 0).ok(1, got(1, "persistent", 5), 1)
                .invoke(2, "create", "p0", asked(2, "persistent"), 2).ok(2, got(2, "persistent", 4), 3);
        all.add(new Example("sequential-znodes", Map.of(), finalRead(order, "n1", 20, child(2, 4), child(1, 5))
                .build()));
        // a name the client made up
        HistoryBuilder madeUp = new HistoryBuilder()
                .invoke(1, "create", "p0", asked(1, "persistent"), 0)
                .ok(1, map("value", 1L, "mode", "persistent", "name", child(1, 9), "seq", 9L), 1);
        all.add(new Example("sequential-znodes", Map.of(), finalRead(madeUp, "n1", 20, child(1, 1)).build()));

        // multi: p1 checks r0, sets r1, creates e0; p3 sets r0 and deletes e0; p2 reads all three twice
        HistoryBuilder txns = new HistoryBuilder()
                .invoke(1, "txn", ops(m("check", "r0", null), m("set", "r1", 1L), m("create", "e0", 2L)), 0)
                .ok(1, ops(m("check", "r0", 0L), m("set", "r1", 1L), m("create", "e0", 2L)), 1)
                .invoke(2, "read", ops(m("read", "r0", null), m("read", "r1", null), m("read", "e0", null)), 2)
                .ok(2, ops(m("read", "r0", 0L), m("read", "r1", 1L), m("read", "e0", 2L)), 3)
                .invoke(3, "txn", ops(m("set", "r0", 3L), m("delete", "e0", null)), 4)
                .ok(3, ops(m("set", "r0", 3L), m("delete", "e0", null)), 5)
                .invoke(2, "read", ops(m("read", "r0", null), m("read", "r1", null), m("read", "e0", null)), 6)
                .ok(2, ops(m("read", "r0", 3L), m("read", "r1", 1L), m("read", "e0", null)), 7);
        all.add(new Example("multi-txn", Map.of(), txns.build()));
        // a split transaction: its set of r1 landed, its create of e0 found e0 there, it reported the whole failed
        HistoryBuilder split = new HistoryBuilder()
                .invoke(1, "txn", ops(m("create", "e0", 1L)), 0).ok(1, ops(m("create", "e0", 1L)), 1)
                .invoke(4, "txn", ops(m("set", "r1", 7L), m("create", "e0", 8L)), 2).fail(4, 3)
                .invoke(2, "read", ops(m("read", "r1", null), m("read", "e0", null)), 4)
                .ok(2, ops(m("read", "r1", 7L), m("read", "e0", 1L)), 5);
        all.add(new Example("multi-txn", Map.of(), split.build()));
        // a read that saw the second transaction's r0 beside the first's r1
        HistoryBuilder fractured = new HistoryBuilder()
                .invoke(1, "txn", ops(m("set", "r0", 1L), m("set", "r1", 2L)), 0)
                .ok(1, ops(m("set", "r0", 1L), m("set", "r1", 2L)), 1)
                .invoke(1, "txn", ops(m("set", "r0", 3L), m("set", "r1", 4L)), 2)
                .ok(1, ops(m("set", "r0", 3L), m("set", "r1", 4L)), 3)
                .invoke(2, "read", ops(m("read", "r0", null), m("read", "r1", null)), 4)
                .ok(2, ops(m("read", "r0", 3L), m("read", "r1", 2L)), 5);
        all.add(new Example("multi-txn", Map.of(), fractured.build()));
        // releases before 3.6 read one znode at a time: a stale one is caught by the linearizability search
        all.add(new Example("multi-txn", Map.of(), new HistoryBuilder()
                .invoke(1, "txn", ops(m("set", "r0", 1L)), 0).ok(1, ops(m("set", "r0", 1L)), 1)
                .invoke(2, "read", ops(m("read", "r0", null)), 2).ok(2, ops(m("read", "r0", 0L)), 3)
                .build()));
        return all;
    }

    @Test
    void everyVerdictBlockOfTheDocIsTheOutputOfItsExample() throws IOException {
        List<String> documented = DocExamplesTest.blocks(DOC).stream().filter(DocExamplesTest.Block::isVerdict)
                .map(b -> DocExamplesTest.maskTimes(b.text())).toList();
        List<String> printed = examples().stream().map(e -> DocExamplesTest.maskTimes(e.block())).toList();
        assertThat(documented).as("verdict blocks of %s, in order", DOC).containsExactlyElementsOf(printed);
    }

    public static void main(String[] args) {
        examples().forEach(e -> System.out.println("```\n" + e.block() + "```\n"));
    }
}
