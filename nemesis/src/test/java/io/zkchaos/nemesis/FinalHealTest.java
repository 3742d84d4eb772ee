package io.zkchaos.nemesis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The final heal undoes every fault it can, whatever fails on the way, and says what it could not undo. */
class FinalHealTest {

    @Test
    void aStartThatFailsOnceIsTriedAgainAndTheHealSucceeds() {
        RecordingSystem s = new RecordingSystem(3);
        s.states.put("n1", NodeState.DOWN);
        s.states.put("n3", NodeState.DOWN);
        s.failingStarts.put("n1", 1);
        FaultRecord heal = Nemeses.require("kill-random").on(s.target(1)).healAll();
        assertThat(heal.nodes()).containsExactly("n1", "n3");
        assertThat(s.states).containsEntry("n1", NodeState.RUNNING).containsEntry("n3", NodeState.RUNNING);
        assertThat(s.calls).containsSubsequence("failed start n1", "start n1", "start n3");
    }

    @Test
    void aNodeThatNeverStartsDoesNotSpareTheOthersAndIsNamed() {
        RecordingSystem s = new RecordingSystem(3);
        s.states.put("n1", NodeState.DOWN);
        s.states.put("n3", NodeState.DOWN);
        s.states.put("n2", NodeState.PAUSED);
        s.failingStarts.put("n1", Integer.MAX_VALUE);
        assertThatThrownBy(() -> Nemeses.require("kill-random").on(s.target(1)).healAll())
                .isInstanceOf(FaultNemesis.HealFailedException.class)
                .hasMessage("the final heal did not finish: could not restart nodes that are down: restart n1: "
                        + "cannot start n1 now");
        assertThat(s.states).containsEntry("n1", NodeState.DOWN).containsEntry("n2", NodeState.RUNNING)
                .containsEntry("n3", NodeState.RUNNING);
    }
}
