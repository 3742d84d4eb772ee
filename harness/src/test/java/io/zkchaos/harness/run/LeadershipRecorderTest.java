package io.zkchaos.harness.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.history.InMemoryRecorder;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.checkers.leader.SingleLeaderChecker;
import io.zkchaos.harness.cluster.NodeStatus;
import io.zkchaos.harness.cluster.NodeStatus.Mode;
import io.zkchaos.nemesis.NodeState;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The servers' own leadership as election operations, judged by the single-leader checker. */
class LeadershipRecorderTest {

    private final InMemoryRecorder history = new InMemoryRecorder();
    private final LeadershipRecorder leadership = new LeadershipRecorder(history, List.of("n1", "n2", "n3"));

    private void leader(String node, long epoch) {
        leadership.observed(node, new NodeStatus(node, Mode.LEADER, epoch << 32, epoch, null), NodeState.RUNNING);
    }

    private void follower(String node, long epoch) {
        leadership.observed(node, new NodeStatus(node, Mode.FOLLOWER, epoch << 32, epoch, null), NodeState.RUNNING);
    }

    private void down(String node) {
        leadership.observed(node, new NodeStatus(node, Mode.UNREACHABLE, -1, "down"), NodeState.DOWN);
    }

    private void paused(String node) {
        leadership.observed(node, new NodeStatus(node, Mode.UNREACHABLE, -1, "paused"), NodeState.PAUSED);
    }

    private CheckResult check() {
        leadership.ended();
        return new SingleLeaderChecker(null, Duration.ofSeconds(10)).check(history.history());
    }

    @Test
    void aFailoverIsOneLeaderPerEpoch() {
        leader("n3", 1);
        follower("n1", 1);
        follower("n2", 1);
        down("n3");
        history.nemesis(OpType.INVOKE, "kill-leader", null);
        leader("n2", 2);
        follower("n1", 2);
        follower("n3", 2);

        List<Op> ops = history.history().ops();
        assertThat(ops).filteredOn(o -> o.type() == OpType.OK && o.f().equals("acquire"))
                .extracting(o -> o.value().toString()).containsExactly("{token=1, node=n3}", "{token=2, node=n2}");
        assertThat(ops).filteredOn(o -> o.f().equals("release") && o.type() == OpType.INVOKE)
                .extracting(o -> o.value().toString()).containsExactly("{token=1, reason=down}");
        assertThat(ops).allSatisfy(o -> assertThat(o.process()).isIn(-1, 2_000_000, 2_000_001, 2_000_002));
        CheckResult r = check();
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
        assertThat(r.summary()).contains("2 leadership(s)");
    }

    @Test
    void twoLeadersOfOneEpochAreTwoHoldersOfOneToken() {
        leader("n1", 4);
        leader("n3", 4);
        CheckResult r = check();
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(r.summary()).contains("two holders of token 4");
    }

    @Test
    void aLeaderOfAnOlderEpochAfterANewerOneIsATokenGoingBackwards() {
        leader("n2", 5);
        follower("n1", 5); // n1 volunteers after n2 led epoch 5 ...
        leader("n1", 3);   // ... and leads epoch 3
        CheckResult r = check();
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(r.summary()).contains("token went backwards");
    }

    @Test
    void aPausedLeaderStillBelievesItLeadsAndOverlapsItsSuccessor() {
        leader("n1", 1);
        paused("n1");
        leader("n2", 2);
        leader("n1", 1); // awake, still claiming epoch 1 for a moment: the same leadership, not a new one
        follower("n1", 2);
        CheckResult r = check();
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
        assertThat(r.summary()).contains("1 real-time overlap(s)").contains("fencing tokens would have rejected");
        assertThat(history.history().ops()).filteredOn(o -> o.f().equals("release"))
                .extracting(o -> o.value().toString()).containsOnly("{token=1, reason=stepped-down}");
    }

    @Test
    void noLeaderWithinTheBoundAfterAHealFailsTheRun() {
        leader("n3", 1);
        history.nemesis(OpType.INVOKE, "kill-all", null);
        down("n1");
        down("n2");
        down("n3");
        history.nemesis(OpType.INFO, "kill-all", null);
        history.nemesis(OpType.INVOKE, "heal", null);
        history.nemesis(OpType.INFO, "heal", null);
        follower("n1", 1); // answers, elects, never leads again
        CheckResult r = new SingleLeaderChecker(null, Duration.ofNanos(1)).check(history.history());
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(r.summary()).contains("no leader within");
    }
}
