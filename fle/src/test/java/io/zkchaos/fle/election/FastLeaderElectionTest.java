package io.zkchaos.fle.election;

import static io.zkchaos.fle.election.ServerState.FOLLOWING;
import static io.zkchaos.fle.election.ServerState.LEADING;
import static io.zkchaos.fle.election.ServerState.LOOKING;
import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.fle.Bug;
import io.zkchaos.fle.Bugs;
import io.zkchaos.fle.Timing;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** One election driven notification by notification (the other servers are played by the test). */
class FastLeaderElectionTest {

    private static final Set<Long> THREE = Set.of(1L, 2L, 3L);
    private static final Set<Long> FIVE = Set.of(1L, 2L, 3L, 4L, 5L);

    private static Vote looking(long leader, long zxid, long round, long peerEpoch) {
        return new Vote(leader, zxid, round, peerEpoch, LOOKING);
    }

    @Test
    void aRoundStartsByVotingForItselfToEveryone() {
        FleHarness h = new FleHarness(1, THREE, 7, 1);
        h.start();
        assertThat(h.fle.logicalClock()).isEqualTo(1);
        assertThat(h.sentTo(2)).containsExactly(looking(1, 7, 1, 1));
        assertThat(h.sentTo(3)).containsExactly(looking(1, 7, 1, 1));
    }

    @Test
    void aQuorumDecidesOnlyOnceFinalizeWaitHasPassedWithoutABetterVote() {
        FleHarness h = new FleHarness(1, THREE, 5, 1);
        h.start();
        h.deliver(2, looking(2, 5, 1, 1)); // better (same zxid, larger SID): adopted, and now 1 and 2 agree
        assertThat(h.fle.proposal().leader()).isEqualTo(2);
        h.run(199);
        assertThat(h.decisions).as("decided before finalizeWait (200 ms) passed").isEmpty();
        h.run(1);
        assertThat(h.decisions).extracting(Vote::leader).containsExactly(2L);
        assertThat(h.state).isEqualTo(FOLLOWING);
    }

    @Test
    void aBetterVoteDuringFinalizeWaitIsTaken() {
        FleHarness h = new FleHarness(1, THREE, 5, 1);
        h.start();
        h.deliver(2, looking(2, 5, 1, 1));
        h.run(100);
        h.deliver(3, looking(3, 5, 1, 1));
        h.run(1000);
        assertThat(h.decisions).extracting(Vote::leader).containsExactly(3L);
    }

    @Test
    void aWorseVoteDuringFinalizeWaitIsDroppedAndTheWaitStartsAgain() {
        FleHarness h = new FleHarness(1, THREE, 5, 1);
        h.start();
        h.deliver(2, looking(2, 5, 1, 1));
        h.run(150);
        h.deliver(3, looking(1, 5, 1, 1)); // 3 votes for 1: worse than 2
        h.run(199);
        assertThat(h.decisions).as("the wait restarted at 150 ms, so no decision at 349 ms").isEmpty();
        h.run(1);
        assertThat(h.decisions).extracting(Vote::leader).containsExactly(2L);
    }

    @Test
    void withoutFinalizeWaitTheFirstQuorumDecidesAtOnce() {
        FleHarness h = new FleHarness(1, THREE, 5, 1, Timing.DEFAULT, Bugs.of(Bug.NO_FINALIZE_WAIT));
        h.start();
        h.deliver(2, looking(2, 5, 1, 1));
        assertThat(h.decisions).extracting(Vote::leader).containsExactly(2L);
        assertThat(h.clock.now()).isZero();
    }

    /**
     * 2 agrees at once; 3's worse vote comes at 150 ms, its better one at 300 ms: the correct election, whose wait the
     * worse vote started again, takes the better one; the buggy one decided at 0 ms, and the counter sees the better
     * vote coming while the correct election would still be waiting.
     */
    @Test
    void aDecisionAtOnceCountsWhenTheCorrectElectionStillWaitingWouldHaveTakenALaterBetterVote() {
        for (boolean bug : new boolean[] {false, true}) {
            FleHarness h = quorumWith2(bug);
            h.run(150);
            h.deliver(3, looking(1, 5, 1, 1)); // worse than 2
            h.run(150);
            h.deliver(3, looking(3, 5, 1, 1)); // better, 300 ms after the quorum, 150 ms after the worse vote
            h.run(1000);
            assertThat(h.decisions.get(0).leader()).as("first decision, bug %s", bug).isEqualTo(bug ? 2L : 3L);
            assertThat(h.bugPaths.counts()).isEqualTo(bug ? Map.of(Bug.NO_FINALIZE_WAIT, 1L) : Map.of());
        }
    }

    /** The same better vote with nothing before it: 200 ms after the quorum the correct election decided too. */
    @Test
    void aDecisionAtOnceDoesNotCountWhenTheCorrectElectionWouldHaveDecidedTheSame() {
        for (boolean bug : new boolean[] {false, true}) {
            FleHarness h = quorumWith2(bug);
            h.run(300);
            h.deliver(3, looking(3, 5, 1, 1));
            h.run(1000);
            assertThat(h.decisions).extracting(Vote::leader).as("bug %s", bug).containsExactly(2L);
            assertThat(h.bugPaths.counts()).isEqualTo(bug ? Map.of(Bug.NO_FINALIZE_WAIT, 0L) : Map.of());
        }
    }

    /** Server 1, with or without {@code no-finalize-wait}, the moment 2's vote for 2 makes a quorum agree. */
    private static FleHarness quorumWith2(boolean noFinalizeWait) {
        FleHarness h = new FleHarness(1, THREE, 5, 1, Timing.DEFAULT,
                noFinalizeWait ? Bugs.of(Bug.NO_FINALIZE_WAIT) : Bugs.NONE);
        h.start();
        h.deliver(2, looking(2, 5, 1, 1));
        return h;
    }

    @Test
    void aNewerRoundIsAdoptedAndItsVoteComparedWithTheInitialVote() {
        FleHarness h = new FleHarness(1, THREE, 9, 1);
        h.start();
        h.deliver(3, looking(3, 5, 4, 1)); // round 4, but a worse proposal than our own
        assertThat(h.fle.logicalClock()).isEqualTo(4);
        assertThat(h.fle.proposal()).isEqualTo(looking(1, 9, 4, 1));
        assertThat(h.sentTo(3)).last().isEqualTo(looking(1, 9, 4, 1));
    }

    @Test
    void votesOfAnOlderRoundAreIgnoredAndTheLaggardIsAnswered() {
        FleHarness h = new FleHarness(1, FIVE, 5, 1);
        h.start();
        h.deliver(2, looking(5, 9, 3, 1)); // round 3 for server 5 (zxid 9): adopted
        h.run(10);
        assertThat(h.fle.proposal()).isEqualTo(looking(5, 9, 3, 1));
        h.deliver(3, looking(5, 9, 1, 1)); // the same vote, but of round 1
        h.run(5_000);
        assertThat(h.decisions).as("two round-3 votes (1 and 2) and a round-1 vote are not a quorum of 5").isEmpty();
        assertThat(h.sentTo(3)).as("the laggard is told the current round").contains(looking(5, 9, 3, 1));
    }

    @Test
    void withMixedEpochsAnOlderRoundsVoteCompletesAQuorum() {
        FleHarness h = new FleHarness(1, FIVE, 5, 1, Timing.DEFAULT, Bugs.of(Bug.MIX_ELECTION_EPOCHS));
        h.start();
        h.deliver(2, looking(5, 9, 3, 1));
        h.run(10);
        h.deliver(3, looking(5, 9, 1, 1));
        h.run(5_000);
        assertThat(h.decisions).extracting(Vote::leader, Vote::electionEpoch).containsExactly(
                org.assertj.core.groups.Tuple.tuple(5L, 3L));
    }

    @Test
    void aDuplicateNotificationCountsOnce() {
        FleHarness h = new FleHarness(1, FIVE, 5, 1);
        h.start();
        h.deliver(2, looking(5, 9, 1, 1));
        h.deliver(2, looking(5, 9, 1, 1));
        h.deliver(2, looking(5, 9, 1, 1));
        h.run(5_000);
        assertThat(h.decisions).as("1 and 2 agree on 5; duplicates from 2 add nothing").isEmpty();
        h.deliver(4, looking(5, 9, 1, 1));
        h.run(1_000);
        assertThat(h.decisions).extracting(Vote::leader).containsExactly(5L);
    }

    @Test
    void aServerJoinsAnEnsembleWhoseQuorumFollowsALeaderThatConfirmsIt() {
        FleHarness h = new FleHarness(1, FIVE, 5, 1);
        h.start();
        h.deliver(2, new Vote(5, 12, 4, 2, FOLLOWING));
        h.deliver(3, new Vote(5, 12, 4, 2, FOLLOWING));
        h.deliver(4, new Vote(5, 12, 4, 2, FOLLOWING));
        h.run(5_000);
        assertThat(h.decisions).as("a quorum follows 5, but 5 has not said it leads").isEmpty();
        h.deliver(5, new Vote(5, 12, 4, 2, LEADING));
        assertThat(h.decisions).as("joins at once, without finalizeWait")
                .containsExactly(new Vote(5, 12, 4, 2, FOLLOWING));
        assertThat(h.fle.logicalClock()).as("takes the ensemble's round").isEqualTo(4);
    }

    @Test
    void aServerJoinsAnEnsembleOfItsOwnRoundThroughTheReceivedVotes() {
        FleHarness h = new FleHarness(1, THREE, 0, 0);
        h.start();
        h.deliver(3, new Vote(3, 0, 1, 1, LEADING));
        assertThat(h.decisions).as("1 and 3 do not agree yet (1 still votes for itself)").isEmpty();
        h.deliver(2, new Vote(3, 0, 1, 1, FOLLOWING));
        assertThat(h.decisions).containsExactly(new Vote(3, 0, 1, 1, FOLLOWING));
    }

    @Test
    void aFollowerAnswersALookingServerWithItsLeaderAndState() {
        FleHarness h = new FleHarness(1, THREE, 0, 0);
        h.state = FOLLOWING;
        h.currentVote = new Vote(3, 4, 2, 1, FOLLOWING);
        h.deliver(2, looking(2, 4, 3, 1));
        assertThat(h.sentTo(2)).containsExactly(new Vote(3, 4, 2, 1, FOLLOWING));
        h.deliver(3, new Vote(3, 4, 2, 1, LEADING));
        assertThat(h.sentTo(3)).as("only LOOKING servers are answered").isEmpty();
    }

    @Test
    void theNotificationTimeoutDoublesUpToItsBoundResendingTheVote() {
        FleHarness h = new FleHarness(1, THREE, 0, 0, Timing.DEFAULT.withMaxNotificationIntervalMs(1_000),
                Bugs.NONE);
        h.start();
        h.run(5_000);
        assertThat(h.sent.stream().filter(s -> s.to() == 2).map(FleHarness.Sent::time))
                .containsExactly(0L, 200L, 600L, 1_400L, 2_400L, 3_400L, 4_400L);
        assertThat(h.connectAlls).isZero();
    }

    @Test
    void whenASendQueueIsNotDrainedTheTimeoutReconnectsInsteadOfResending() {
        FleHarness h = new FleHarness(1, THREE, 0, 0);
        h.delivered = false;
        h.start();
        h.run(700);
        assertThat(h.sentTo(2)).hasSize(1);
        assertThat(h.connectAlls).isEqualTo(2);
    }

    @Test
    void anObserversVoteDoesNotCount() {
        FleHarness h = new FleHarness(1, THREE, 0, 0);
        h.start();
        h.deliver(2, new Vote(1, 0, 1, 0, ServerState.OBSERVING));
        h.run(5_000);
        assertThat(h.decisions).isEmpty();
    }

    @Test
    void notificationsFromOutsideTheVotersAreIgnored() {
        FleHarness h = new FleHarness(1, THREE, 0, 0);
        h.start();
        h.deliver(9, looking(1, 0, 1, 0));
        h.deliver(2, looking(9, 0, 1, 0));
        h.run(5_000);
        assertThat(h.decisions).isEmpty();
    }
}
