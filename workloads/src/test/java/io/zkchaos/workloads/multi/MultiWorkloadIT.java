package io.zkchaos.workloads.multi;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.CheckerCatalog;
import io.zkchaos.checkers.CheckerOptions;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.InMemoryRecorder;
import io.zkchaos.checkers.multi.MultiReport;
import io.zkchaos.workloads.HistoryAssertions;
import io.zkchaos.workloads.RunContext;
import io.zkchaos.workloads.SharedEnsemble;
import io.zkchaos.workloads.Target;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The multi workload on a real 3-node ensemble (3.9.5: reads in one read-only multi), judged by its checker. */
class MultiWorkloadIT {

    @RegisterExtension
    static final SharedEnsemble ensemble = new SharedEnsemble(3);

    private static History run(MultiWorkload w, long seed) throws Exception {
        Target target = ensemble.get().target();
        w.setup(target);
        w.withRate(200); // a few hundred operations: enough to meet every case, quick to search
        InMemoryRecorder rec = new InMemoryRecorder();
        w.run(new RunContext(target, rec, seed, 4, Duration.ofSeconds(2)));
        return HistoryAssertions.wellFormed(rec::history);
    }

    private static CheckResult judge(History h) {
        return CheckerCatalog.create(CheckerCatalog.MULTI_TXN, CheckerOptions.defaults()
                .withTimeLimit(Duration.ofSeconds(60))).check(h);
    }

    @Test
    void transactionsAreAtomicAndReadsSeeThemWhole() throws Exception {
        MultiWorkload w = new MultiWorkload("/it/multi", 2);
        CheckResult r = judge(run(w, 11L));
        assertThat(w.readsAtOnce()).isTrue();
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
        MultiReport d = (MultiReport) r.details();
        assertThat(d.txnsOk()).as(r.summary()).isPositive();
        assertThat(d.txnsFailed()).as("creates of present nodes, deletes of absent ones: %s", r.summary())
                .isPositive();
        assertThat(d.multiReads()).as(r.summary()).isPositive();
        assertThat(d.singleReads()).isZero();
    }

    @Test
    void aTransactionSplitIntoSeparateCallsIsCaught() throws Exception {
        CheckResult r = judge(run(new MultiWorkload("/it/multi-split", 2).split(), 11L));
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.INVALID);
        assertThat(r.summary()).as("the explanation names the read and the transaction")
                .containsPattern("process \\d+");
    }
}
