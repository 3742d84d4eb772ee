package io.zkchaos.workloads.fle;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.CheckerCatalog;
import io.zkchaos.checkers.CheckerOptions;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.InMemoryRecorder;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.fle.Bugs;
import io.zkchaos.fle.Timing;
import io.zkchaos.fle.local.LocalGroup;
import io.zkchaos.workloads.ClientWorkload;
import io.zkchaos.workloads.RunContext;
import io.zkchaos.workloads.Target;
import io.zkchaos.workloads.WorkloadOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fle workloads against three real node processes (the module's {@link LocalGroup}, no proxy): their histories
 * follow the conventions, and the checkers their descriptors name find them valid.
 */
class FleWorkloadsIT {

    @TempDir
    Path dir;

    private LocalGroup group;
    private Target target;

    @BeforeEach
    void startNodes() {
        group = LocalGroup.create(dir, 3, Timing.DEFAULT, Bugs.NONE);
        group.startAll();
        assertThat(group.awaitStable(Duration.ofSeconds(90))).as("a leader serving within 90 s").isPresent();
        Map<String, String> servers = new LinkedHashMap<>();
        for (int i = 1; i <= 3; i++) {
            servers.put("n" + i, "127.0.0.1:" + group.clientAddress(i).getPort());
        }
        target = Target.of(String.join(",", servers.values()), servers).withTimeouts(Duration.ofSeconds(4),
                Duration.ofSeconds(3));
    }

    @AfterEach
    void stopNodes() {
        group.close();
    }

    private History run(String name) throws Exception {
        ClientWorkload w = (ClientWorkload) FleWorkloads.byName(name).orElseThrow()
                .create(WorkloadOptions.defaults().withRate(200));
        InMemoryRecorder recorder = new InMemoryRecorder();
        w.setup(target);
        w.run(new RunContext(target, recorder, 7, 4, Duration.ofSeconds(4)));
        w.finalPhase(target, recorder);
        w.teardown(target);
        return recorder.history();
    }

    private static CheckResult check(String checker, History h) {
        return CheckerCatalog.create(checker, CheckerOptions.defaults()).check(h);
    }

    @Test
    void theRegisterIsLinearizableWhereItMustBeAndItsLogsArePrefixes() throws Exception {
        History h = run("register");
        assertThat(h.operations()).extracting(o -> o.f()).contains("read", "write", "cas", "read-log");
        assertThat(h.operations()).filteredOn(o -> o.f().equals("write")).anyMatch(o -> o.isOk());
        assertThat(h.operations()).filteredOn(o -> o.f().equals("cas") && o.isOk()).isNotEmpty();
        CheckResult model = check("zk-read-model", h);
        assertThat(model.validity()).as(model.summary()).isEqualTo(Validity.VALID);
        CheckResult logs = check("log-prefix", h);
        assertThat(logs.validity()).as(logs.summary()).isEqualTo(Validity.VALID);
        assertThat(logs.summary()).contains("3 node(s)");
    }

    @Test
    void everyAcknowledgedAddIsInEveryNodesFinalRead() throws Exception {
        History h = run("set");
        assertThat(h.operations()).filteredOn(o -> o.f().equals("read") && o.isOk()).hasSize(3)
                .allSatisfy(o -> assertThat(o.output().toString()).contains("node=n"));
        assertThat(h.ops()).filteredOn(o -> o.f().equals("add") && o.type() == OpType.OK).hasSizeGreaterThan(20);
        CheckResult lost = check("no-lost-commit", h);
        assertThat(lost.validity()).as(lost.summary()).isEqualTo(Validity.VALID);
        assertThat(check("log-prefix", h).validity()).isEqualTo(Validity.VALID);
    }
}
