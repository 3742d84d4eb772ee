package io.zkchaos.workloads.sequential;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.CheckerCatalog;
import io.zkchaos.checkers.CheckerOptions;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.InMemoryRecorder;
import io.zkchaos.checkers.sequential.SequentialReport;
import io.zkchaos.workloads.HistoryAssertions;
import io.zkchaos.workloads.RunContext;
import io.zkchaos.workloads.SharedEnsemble;
import io.zkchaos.workloads.Target;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The sequential workload on a real 3-node ensemble, judged by the catalog's checker. */
class SequentialWorkloadIT {

    @RegisterExtension
    static final SharedEnsemble ensemble = new SharedEnsemble(3);

    private static History run(SequentialWorkload w, long seed) throws Exception {
        Target target = ensemble.get().target();
        w.setup(target);
        w.withRate(200);
        InMemoryRecorder rec = new InMemoryRecorder();
        w.run(new RunContext(target, rec, seed, 4, Duration.ofSeconds(2)));
        w.finalPhase(target, rec);
        return HistoryAssertions.wellFormed(rec::history);
    }

    private static CheckResult judge(History h) {
        return CheckerCatalog.create(CheckerCatalog.SEQUENTIAL_ZNODES, CheckerOptions.defaults()).check(h);
    }

    @Test
    void everyAcknowledgedNameIsUniqueOrderedAndOnEveryServer() throws Exception {
        CheckResult r = judge(run(new SequentialWorkload("/it/sequential", 2), 7L));
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
        SequentialReport d = (SequentialReport) r.details();
        assertThat(d.acknowledged()).as(r.summary()).isPositive();
        assertThat(d.ephemeral()).as(r.summary()).isPositive();
        assertThat(d.finalReads()).containsExactly("n1", "n2", "n3");
    }

    @Test
    void aClientThatReportsNamesItMadeUpIsCaught() throws Exception {
        CheckResult r = judge(run(new SequentialWorkload("/it/sequential-made-up", 2).withMadeUpNames(), 7L));
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.INVALID);
        // Four clients counting on their own give the same numbers twice, and none matches what the servers hold.
        assertThat(((SequentialReport) r.details()).violationsByRule()).containsKeys("unique-name", "name-mismatch");
        assertThat(r.summary()).containsPattern("process \\d+'s create of \\d+ under p[01]");
    }
}
