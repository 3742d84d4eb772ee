package io.zkchaos.fle.election;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.fle.Zxid;
import org.junit.jupiter.api.Test;

class VoteOrderTest {

    private static Vote v(long leader, long zxid, long peerEpoch) {
        return new Vote(leader, zxid, 1, peerEpoch, ServerState.LOOKING);
    }

    @Test
    void aHigherPeerEpochWinsWhateverTheZxidAndSid() {
        VoteOrder o = VoteOrder.CORRECT;
        assertThat(o.beats(v(1, Zxid.of(2, 1), 2), v(3, Zxid.of(1, 9), 1))).isTrue();
        assertThat(o.beats(v(3, Zxid.of(1, 9), 1), v(1, Zxid.of(2, 1), 2))).isFalse();
    }

    @Test
    void thenAHigherZxidWins() {
        VoteOrder o = VoteOrder.CORRECT;
        assertThat(o.beats(v(1, Zxid.of(1, 9), 1), v(5, Zxid.of(1, 8), 1))).isTrue();
        assertThat(o.beats(v(5, Zxid.of(1, 8), 1), v(1, Zxid.of(1, 9), 1))).isFalse();
    }

    @Test
    void thenTheLargerSid() {
        VoteOrder o = VoteOrder.CORRECT;
        assertThat(o.beats(v(3, Zxid.of(1, 9), 1), v(2, Zxid.of(1, 9), 1))).isTrue();
        assertThat(o.beats(v(2, Zxid.of(1, 9), 1), v(3, Zxid.of(1, 9), 1))).isFalse();
    }

    @Test
    void aVoteDoesNotBeatItself() {
        assertThat(VoteOrder.CORRECT.beats(v(2, 7, 1), v(2, 7, 1))).isFalse();
    }

    @Test
    void withoutZxidsTheLargerSidWinsWithinAnEpoch() {
        VoteOrder buggy = new VoteOrder(false);
        assertThat(buggy.beats(v(5, Zxid.of(1, 8), 1), v(3, Zxid.of(1, 9), 1))).isTrue();
        // the epoch still comes first
        assertThat(buggy.beats(v(5, Zxid.of(1, 8), 1), v(3, Zxid.of(2, 1), 2))).isFalse();
    }

    @Test
    void votesOfOneRoundMatchOnEveryFieldWhileLooking() {
        Vote a = new Vote(3, 9, 2, 1, ServerState.LOOKING);
        assertThat(a.sameAs(new Vote(3, 9, 2, 1, ServerState.LOOKING), false)).isTrue();
        assertThat(a.sameAs(new Vote(3, 9, 1, 1, ServerState.LOOKING), false)).as("another round").isFalse();
        assertThat(a.sameAs(new Vote(3, 9, 1, 1, ServerState.LOOKING), true)).as("mix-election-epochs").isTrue();
        assertThat(a.sameAs(new Vote(3, 8, 2, 1, ServerState.LOOKING), false)).as("another zxid").isFalse();
    }

    @Test
    void votesOfAnEnsembleMatchOnLeaderAndEpochOnly() {
        Vote following = new Vote(3, 9, 2, 4, ServerState.FOLLOWING);
        assertThat(following.sameAs(new Vote(3, 12, 1, 4, ServerState.LEADING), false)).isTrue();
        assertThat(following.sameAs(new Vote(3, 9, 2, 5, ServerState.LEADING), false)).isFalse();
    }
}
