package io.zkchaos.harness.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.codec.HistoryFiles;
import io.zkchaos.checkers.history.HistoryRecorder;
import io.zkchaos.checkers.history.Operation;
import io.zkchaos.checkers.state.FinalStateChecker;
import io.zkchaos.checkers.state.WorkloadAcls;
import io.zkchaos.harness.run.config.RunConfig;
import io.zkchaos.workloads.RunContext;
import io.zkchaos.workloads.Sessions;
import io.zkchaos.workloads.Target;
import io.zkchaos.workloads.Workload;
import io.zkchaos.workloads.WorkloadDescriptor;
import io.zkchaos.workloads.Workloads;
import io.zkchaos.workloads.ZnodeAcls;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code set} run with {@code --acl per-client} on ZooKeeper 3.9.5 under {@code kill-random}: valid, the servers'
 * trees hold one ACL per client session (read from every server by the final-state reads), and the servers enforce
 * them: asked while the ensemble still runs, a znode's ACL names its client's identity and a session without
 * credentials gets NoAuth reading it.
 */
class PerClientAclsIT {

    @TempDir
    Path store;

    @Test
    void everyClientsZnodesCarryItsOwnAclAndTheServersAgreeOnThem() throws Exception {
        StringWriter progress = new StringWriter();
        RunConfig config = RunConfig.builder().workload("set").nemesis("kill-random").zookeeper("3.9.5")
                .acls(ZnodeAcls.PER_CLIENT).timeLimit(Duration.ofSeconds(5)).faultFor(Duration.ofSeconds(2))
                .healFor(Duration.ofSeconds(1)).recover(Duration.ofSeconds(2)).concurrency(3).seed(17).out(store)
                // the claim is the ACLs the servers hold; in a 5 s run on a loaded machine the killed node's clients
                // may get nothing acknowledged under the fault or within 2 s of the heal
                .relax(java.util.List.of("acked-under-fault", "acked-after-heal"))
                .build();
        WorkloadDescriptor set = Workloads.require("set");
        Map<String, Object> seen = new ConcurrentHashMap<>();
        WorkloadDescriptor probed = new WorkloadDescriptor(set.name(), set.description(),
                options -> new ProbedBeforeTeardown(set.create(options), seen), set.checkers(), false,
                set.minimum(), set.underFault());
        RunOutcome outcome = new Runner(new PrintWriter(progress), Duration.ofSeconds(5)).run(config, probed);

        assertThat(outcome.result().validity()).as(outcome.result().summary() + "\n" + progress)
                .isEqualTo(Validity.VALID);
        assertThat(outcome.result().summary()).contains("Every workload znode holds its per-client ACL.");

        // what the live servers answered (ProbedBeforeTeardown)
        assertThat(seen).as(seen + "\n" + progress).containsKeys("acl", "unauthenticated");
        assertThat((String) seen.get("acl")).contains("digest:" + WorkloadAcls.AUDITOR + ":")
                .containsPattern("digest:" + WorkloadAcls.CLIENT_PREFIX + "[0-9a-f]+:");
        assertThat(WorkloadAcls.unexpected((String) seen.get("acl"))).isNull();
        assertThat(seen.get("unauthenticated")).isEqualTo(KeeperException.Code.NOAUTH);

        // every server's final tree, read through the history: the elements carry one client identity each, and
        // the run had several clients
        List<Operation> reads = HistoryFiles.read(outcome.directory().historyFile()).operations().stream()
                .filter(op -> op.f().equals(FinalStateChecker.READ_TREE) && op.isOk()).toList();
        assertThat(reads).isNotEmpty();
        Set<String> clients = new java.util.TreeSet<>();
        for (Operation read : reads) {
            @SuppressWarnings("unchecked")
            Map<String, Object> value = (Map<String, Object>) read.output();
            assertThat(value).containsEntry("acls", "per-client").containsEntry("aclRoot", "/zkchaos");
            @SuppressWarnings("unchecked")
            Map<String, Map<String, Object>> znodes = (Map<String, Map<String, Object>>) value.get("znodes");
            znodes.forEach((path, z) -> {
                if (path.startsWith("/zkchaos/set/")) {
                    List<String> users = WorkloadAcls.parse((String) z.get("acl")).stream()
                            .map(WorkloadAcls.Entry::digestUser).filter(WorkloadAcls::isClient).toList();
                    assertThat(users).as(path).hasSize(1);
                    clients.addAll(users);
                }
            });
        }
        assertThat(clients).as("one identity per client session").hasSizeGreaterThanOrEqualTo(3);
        LeftOvers.assertNoServerOf(outcome.directory().path());
    }

    /**
     * The set workload, and after its final reads (the ensemble still up, the clients gone) two questions to the
     * servers: the ACL of one element, and what a session without credentials gets reading it.
     */
    private record ProbedBeforeTeardown(Workload set, Map<String, Object> seen) implements Workload {

        @Override
        public String name() {
            return set.name();
        }

        @Override
        public void setup(Target target) throws Exception {
            set.setup(target);
        }

        @Override
        public void run(RunContext ctx) throws InterruptedException {
            set.run(ctx);
        }

        @Override
        public void finalPhase(Target target, HistoryRecorder recorder) throws InterruptedException {
            set.finalPhase(target, recorder);
            try {
                String element;
                try (ZooKeeper auditor = Sessions.open(target.connectString(), target, null)) {
                    List<String> children = new ArrayList<>(auditor.getChildren("/zkchaos/set", false));
                    element = "/zkchaos/set/" + children.get(0);
                    List<ACL> acl = auditor.getACL(element, new Stat());
                    seen.put("acl", ZnodeAcls.canonical(acl));
                }
                Target anonymous = target.withAcls(ZnodeAcls.OPEN); // no credentials at all
                try (ZooKeeper nobody = Sessions.open(target.connectString(), anonymous, null)) {
                    nobody.getData(element, false, null);
                    seen.put("unauthenticated", "read " + element);
                } catch (KeeperException e) {
                    seen.put("unauthenticated", e.code());
                }
            } catch (Exception e) {
                seen.put("error", e.toString());
            }
        }

        @Override
        public void teardown(Target target) {
            set.teardown(target);
        }
    }
}
