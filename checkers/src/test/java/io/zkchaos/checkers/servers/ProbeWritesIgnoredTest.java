package io.zkchaos.checkers.servers;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.CheckerCatalog;
import io.zkchaos.checkers.CheckerDescriptor;
import io.zkchaos.checkers.CheckerOptions;
import io.zkchaos.checkers.Checkers;
import io.zkchaos.checkers.codec.HistoryFiles;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every other checker leaves the availability probe's writes alone: a real run's history judged with and without
 * them gets the same verdict and summary from each.
 */
class ProbeWritesIgnoredTest {

    @Test
    void everyCatalogCheckerJudgesARealRunTheSameWithTheProbeWrites() throws Exception {
        History plain = HistoryFiles.read(Path.of(getClass().getResource("/fixtures/set-kill-leader.jsonl").toURI()));
        List<Op> ops = new ArrayList<>();
        long index = 0;
        int[] renewal = new int[3];
        for (Op op : plain.ops()) {
            ops.add(new Op(index++, op.process(), op.type(), op.f(), op.key(), op.value(), op.error(), op.time()));
            if (op.index() % 10 == 0 && op.time() >= 0) { // a probe write per server now and then, some not acked
                for (int i = 0; i < 3; i++) {
                    int p = AvailabilityChecker.process(i, renewal[i]);
                    String node = "n" + (i + 1);
                    ops.add(Op.invoke(index++, p, AvailabilityChecker.WRITE, node, index, op.time()));
                    boolean acked = op.index() % 30 != 0;
                    ops.add(new Op(index++, p, acked ? OpType.OK : OpType.INFO, AvailabilityChecker.WRITE, node,
                            null, acked ? null : "CONNECTIONLOSS", op.time()));
                    renewal[i] += acked ? 0 : 1;
                }
            }
        }
        History probed = History.of(ops);
        assertThat(probed.operationCount()).isGreaterThan(plain.operationCount());
        CheckerOptions options = CheckerOptions.defaults().withModel("set", null); // the fixture is a set run
        for (CheckerDescriptor d : CheckerCatalog.standard().all()) {
            CheckResult without = Checkers.runSafely(d.create(options), plain); // a throw: unknown, as in a run
            CheckResult with = Checkers.runSafely(d.create(options), probed);
            assertThat(with.details() == null ? null : with.details().getClass()).as(d.name())
                    .isEqualTo(without.details() == null ? null : without.details().getClass());
            assertThat(with.validity()).as(d.name() + ": " + with.summary()).isEqualTo(without.validity());
            assertThat(untimed(with.summary())).as(d.name()).isEqualTo(untimed(without.summary()));
        }
    }

    /**
     * A summary without its numbers: how long the check took differs between two checks, and the history indexes it
     * names moved where probe entries came in between.
     */
    private static String untimed(String summary) {
        return summary.replaceAll("[0-9]+", "#");
    }
}
