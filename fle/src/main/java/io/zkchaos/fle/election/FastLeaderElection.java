package io.zkchaos.fle.election;

import io.zkchaos.fle.Bug;
import io.zkchaos.fle.BugPaths;
import io.zkchaos.fle.Timing;
import io.zkchaos.fle.Zxid;
import io.zkchaos.fle.sched.Scheduler;
import io.zkchaos.fle.sched.Scheduler.Cancellable;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * FastLeaderElection, as ZooKeeper runs it (SPEC §5.2), written as an event handler on the node's
 * {@link Scheduler} rather than a blocking loop on a receive queue: {@link #lookForLeader()} starts a round, every
 * received notification is one turn of ZooKeeper's loop, and the notification and {@code finalizeWait} timeouts are
 * timers.
 *
 * <p>A round: increment the logical clock, vote for yourself (SID, last logged zxid, current epoch), send the vote to
 * every voter (yourself included, through the transport's loopback). Then, for each notification:
 * <ul>
 *   <li>from a LOOKING sender: a larger round adopts that clock, clears the received votes and takes the better of
 *       the sender's vote and your own initial vote; a smaller round is ignored (and the sender is told your vote);
 *       the same round adopts the sender's vote if it is better. The sender's vote is recorded (one per SID); when a
 *       quorum of recorded votes equals yours, wait {@code finalizeWait} for a better one — if one comes, go on with
 *       it, else decide;</li>
 *   <li>from a FOLLOWING/LEADING sender: in the same round, record it and decide if a quorum agrees and the named
 *       leader confirms it leads; in any round, record it in the out-of-election set and follow the leader a quorum
 *       there agrees on, if that leader confirms itself (a server joining an ensemble that already has a leader);</li>
 *   <li>nothing within the timeout: resend the vote if a send queue is drained (see
 *       {@link ElectionTransport#haveDelivered()}), else reconnect; the timeout doubles up to
 *       {@link Timing#maxNotificationIntervalMs()}.</li>
 * </ul>
 * While not LOOKING, the server answers every LOOKING sender with the vote it stands by and its state.
 *
 * <p>With a bug flag of the election on, each step where the buggy election does otherwise than the correct one is
 * counted in the server's {@link BugPaths}: {@code elect-without-zxid}, a vote comparison whose outcome the zxids
 * would have changed; {@code mix-election-epochs}, a notification of an older round that changed the proposal, and a
 * tally that reached a quorum only by counting votes of another round; {@code no-finalize-wait}, a decision taken at
 * once when a better vote of its round came while the correct election would still have been waiting (its
 * {@code finalizeWait} starts again at every worse notification), so that it would have taken that vote.
 *
 * <p>Not thread-safe: every method runs on the node's scheduler.
 */
public final class FastLeaderElection {

    /** What the election needs from its server. */
    public interface Host {
        long myId();

        ServerState state();

        /** The vote the server stands by while FOLLOWING or LEADING (the last election's result). */
        Vote currentVote();

        long lastLoggedZxid();

        long currentEpoch();

        /** The round ended: lead ({@link ServerState#LEADING}) or follow the vote's leader. */
        void decided(Vote vote, ServerState newState);
    }

    private static final Logger LOG = LoggerFactory.getLogger(FastLeaderElection.class);

    private final Host host;
    private final SortedSet<Long> voters;
    private final int quorum;
    private final Scheduler scheduler;
    private final ElectionTransport transport;
    private final Timing timing;
    private final VoteOrder order;
    private final BugPaths bugPaths;
    private final boolean electWithoutZxid;
    private final boolean noFinalizeWait;
    private final boolean mixEpochs;
    private final String tag;

    private long logicalClock;
    private long proposedLeader;
    private long proposedZxid;
    private long proposedEpoch;

    private boolean looking;
    private final Map<Long, Vote> recvset = new HashMap<>();
    private final Map<Long, Vote> outOfElection = new HashMap<>();
    private long notTimeout;
    private Cancellable notificationTimer = Cancellable.NONE;
    /** Non-null while a quorum agrees and the round waits {@code finalizeWait} for a better vote. */
    private Cancellable finalizeTimer;
    /**
     * {@code no-finalize-wait}: the last decision taken without waiting, while a better vote may still come; and when
     * the correct election's {@code finalizeWait} would last have started (at the decision, again at every
     * notification since).
     */
    private Vote decidedAtOnce;
    private long finalizeWaitWouldStart;

    public FastLeaderElection(Host host, Set<Long> voters, Scheduler scheduler, ElectionTransport transport,
                              Timing timing, BugPaths bugPaths) {
        this.host = host;
        this.voters = new TreeSet<>(voters);
        this.quorum = this.voters.size() / 2 + 1;
        this.scheduler = scheduler;
        this.transport = transport;
        this.timing = timing;
        this.bugPaths = bugPaths;
        this.electWithoutZxid = bugPaths.on(Bug.ELECT_WITHOUT_ZXID);
        this.order = new VoteOrder(!electWithoutZxid);
        this.noFinalizeWait = bugPaths.on(Bug.NO_FINALIZE_WAIT);
        this.mixEpochs = bugPaths.on(Bug.MIX_ELECTION_EPOCHS);
        this.tag = "n" + host.myId();
        if (!this.voters.contains(host.myId())) {
            throw new IllegalArgumentException("server " + host.myId() + " is not among the voters " + voters);
        }
    }

    /** The logical clock: the current (or last) round. */
    public long logicalClock() {
        return logicalClock;
    }

    /** Whether a round is in progress. */
    public boolean looking() {
        return looking;
    }

    /** The vote this server currently proposes, in the current round. */
    public Vote proposal() {
        return new Vote(proposedLeader, proposedZxid, logicalClock, proposedEpoch, ServerState.LOOKING);
    }

    /** Starts a new round; the server must be LOOKING. */
    public void lookForLeader() {
        if (looking) {
            throw new IllegalStateException(tag + ": already looking for a leader");
        }
        looking = true;
        decidedAtOnce = null;
        recvset.clear();
        outOfElection.clear();
        notTimeout = timing.finalizeWaitMs();
        logicalClock++;
        updateProposal(host.myId(), host.lastLoggedZxid(), host.currentEpoch());
        LOG.info("{}: new election round {}, my zxid {}, my epoch {}", tag, logicalClock,
                Zxid.show(proposedZxid), proposedEpoch);
        sendNotifications();
        armNotificationTimer();
    }

    /** Ends the round without a decision (the server shuts down). */
    public void stop() {
        looking = false;
        notificationTimer.cancel();
        if (finalizeTimer != null) {
            finalizeTimer.cancel();
            finalizeTimer = null;
        }
    }

    /** One received notification (ZooKeeper's WorkerReceiver, then one turn of {@code lookForLeader}'s loop). */
    public void onNotification(long from, Notification n) {
        if (!voters.contains(from) || !voters.contains(n.leader())) {
            LOG.warn("{}: ignoring {} from {}: not a voter of {}", tag, n, from, voters);
            return;
        }
        ServerState myState = host.state();
        if (myState != ServerState.LOOKING) {
            if (decidedAtOnce != null) {
                betterVoteAfterDecidingAtOnce(from, n);
            }
            // An ensemble with a leader: tell a LOOKING server whom we follow (or that we lead).
            if (n.state() == ServerState.LOOKING && from != host.myId()) {
                transport.send(from, new Notification(host.currentVote().withState(myState)));
            }
            return;
        }
        if (!looking) {
            return;
        }
        if (n.state() == ServerState.LOOKING && n.electionEpoch() < logicalClock && from != host.myId()) {
            // A laggard: answer with our vote so that it catches up with our round.
            transport.send(from, new Notification(proposal()));
        }
        if (finalizeTimer != null) {
            duringFinalizeWait(from, n);
        } else {
            handle(from, n);
        }
        if (looking && finalizeTimer == null) {
            armNotificationTimer();
        }
    }

    /** ZooKeeper's finalize loop: a better vote is put back and handled; anything else is dropped and waits again. */
    private void duringFinalizeWait(long from, Notification n) {
        finalizeTimer.cancel();
        finalizeTimer = null;
        if (beats(n.leader(), n.zxid(), n.peerEpoch(), proposedLeader, proposedZxid, proposedEpoch)) {
            LOG.debug("{}: better vote {} from {} during finalizeWait", tag, n.vote(), from);
            handle(from, n);
        } else {
            startFinalizeWait();
        }
    }

    private void handle(long from, Notification n) {
        switch (n.state()) {
            case LOOKING -> fromLooking(from, n);
            case FOLLOWING, LEADING -> fromEnsemble(from, n);
            case OBSERVING -> LOG.debug("{}: notification from observer {} ignored", tag, from);
        }
    }

    private void fromLooking(long from, Notification n) {
        if (n.electionEpoch() > logicalClock) {
            logicalClock = n.electionEpoch();
            if (!mixEpochs) {
                recvset.clear();
            }
            if (beats(n.leader(), n.zxid(), n.peerEpoch(), host.myId(), host.lastLoggedZxid(),
                    host.currentEpoch())) {
                updateProposal(n.leader(), n.zxid(), n.peerEpoch());
            } else {
                updateProposal(host.myId(), host.lastLoggedZxid(), host.currentEpoch());
            }
            sendNotifications();
        } else if (n.electionEpoch() < logicalClock && !mixEpochs) {
            LOG.debug("{}: notification of round {} from {} is older than round {}: ignored", tag,
                    n.electionEpoch(), from, logicalClock);
            return;
        } else if (beats(n.leader(), n.zxid(), n.peerEpoch(), proposedLeader, proposedZxid, proposedEpoch)) {
            if (n.electionEpoch() < logicalClock) {
                bugPaths.ran(Bug.MIX_ELECTION_EPOCHS); // a vote of an older round changed the proposal
            }
            updateProposal(n.leader(), n.zxid(), n.peerEpoch());
            sendNotifications();
        }
        recvset.put(from, n.vote().withState(ServerState.LOOKING));
        if (quorumAgrees(recvset, proposal())) {
            if (noFinalizeWait) {
                decidedAtOnce = proposal();
                finalizeWaitWouldStart = scheduler.now();
                decide(proposedLeader, proposedZxid, logicalClock, proposedEpoch);
            } else {
                startFinalizeWait();
            }
        }
    }

    private void fromEnsemble(long from, Notification n) {
        Vote v = n.vote();
        if (n.electionEpoch() == logicalClock) {
            recvset.put(from, v);
            if (checkLeader(recvset, n.leader(), n.electionEpoch()) && quorumAgrees(recvset, v)) {
                decide(n.leader(), n.zxid(), n.electionEpoch(), n.peerEpoch());
                return;
            }
        }
        // Verify that a quorum follows the same leader before joining an established ensemble.
        outOfElection.put(from, v);
        if (checkLeader(outOfElection, n.leader(), n.electionEpoch()) && quorumAgrees(outOfElection, v)) {
            logicalClock = n.electionEpoch();
            LOG.info("{}: joining the ensemble led by {} (out-of-election votes {})", tag, n.leader(),
                    outOfElection.keySet());
            decide(n.leader(), n.zxid(), n.electionEpoch(), n.peerEpoch());
        }
    }

    /**
     * Whether the named leader confirms it: another server must have said it is LEADING; this server itself must be
     * in the round the votes were cast in (so that it does not follow votes for a version of itself that died).
     */
    private boolean checkLeader(Map<Long, Vote> votes, long leader, long electionEpoch) {
        if (leader != host.myId()) {
            Vote l = votes.get(leader);
            return l != null && l.state() == ServerState.LEADING;
        }
        return logicalClock == electionEpoch;
    }

    /**
     * Whether a quorum of {@code votes} equals {@code target}. With {@code mix-election-epochs}, rounds are not
     * compared; a quorum that only counting other rounds' votes made is that bug's code path.
     */
    private boolean quorumAgrees(Map<Long, Vote> votes, Vote target) {
        boolean agreed = agreeing(votes, target, mixEpochs) >= quorum;
        if (agreed && mixEpochs && agreeing(votes, target, false) < quorum) {
            bugPaths.ran(Bug.MIX_ELECTION_EPOCHS);
        }
        return agreed;
    }

    private static int agreeing(Map<Long, Vote> votes, Vote target, boolean ignoreRounds) {
        int n = 0;
        for (Vote v : votes.values()) {
            if (target.sameAs(v, ignoreRounds)) {
                n++;
            }
        }
        return n;
    }

    /**
     * The vote order of this build. With {@code elect-without-zxid}, a comparison that the zxids would have decided
     * the other way is that bug's code path.
     */
    private boolean beats(long newId, long newZxid, long newEpoch, long curId, long curZxid, long curEpoch) {
        boolean beats = order.beats(newId, newZxid, newEpoch, curId, curZxid, curEpoch);
        if (electWithoutZxid && beats != VoteOrder.CORRECT.beats(newId, newZxid, newEpoch, curId, curZxid, curEpoch)) {
            bugPaths.ran(Bug.ELECT_WITHOUT_ZXID);
        }
        return beats;
    }

    /**
     * {@code no-finalize-wait}: after a decision taken the moment a quorum agreed, a LOOKING server's better vote of
     * the same round that comes while the correct election would still be waiting is one it would have taken, so the
     * decision is counted as that bug's code path (once). The correct election waits until {@code finalizeWait} passes
     * without a notification: a worse one it drops and starts the wait again ({@link #duringFinalizeWait}), so here
     * each worse one moves the end of that wait on as well; any other better one would have ended the wait its own
     * way, and the comparison ends uncounted.
     */
    private void betterVoteAfterDecidingAtOnce(long from, Notification n) {
        boolean better = order.beats(n.leader(), n.zxid(), n.peerEpoch(), decidedAtOnce.leader(), decidedAtOnce.zxid(),
                decidedAtOnce.peerEpoch());
        if (scheduler.now() - finalizeWaitWouldStart > timing.finalizeWaitMs()) {
            decidedAtOnce = null;
        } else if (!better) {
            finalizeWaitWouldStart = scheduler.now();
        } else if (from != host.myId() && n.state() == ServerState.LOOKING
                && n.electionEpoch() == decidedAtOnce.electionEpoch()) {
            LOG.debug("{}: better vote {} from {} within finalizeWait of deciding at once", tag, n.vote(), from);
            bugPaths.ran(Bug.NO_FINALIZE_WAIT);
            decidedAtOnce = null;
        } else {
            decidedAtOnce = null;
        }
    }

    private void startFinalizeWait() {
        notificationTimer.cancel();
        finalizeTimer = scheduler.schedule(timing.finalizeWaitMs(), () -> {
            finalizeTimer = null;
            if (looking) {
                decide(proposedLeader, proposedZxid, logicalClock, proposedEpoch);
            }
        });
    }

    private void decide(long leader, long zxid, long electionEpoch, long peerEpoch) {
        ServerState s = leader == host.myId() ? ServerState.LEADING : ServerState.FOLLOWING;
        stop();
        Vote end = new Vote(leader, zxid, electionEpoch, peerEpoch, s);
        LOG.info("{}: election round {} decided: {} {} (leader zxid {}, epoch {})", tag, electionEpoch, s,
                s == ServerState.LEADING ? "" : "server " + leader, Zxid.show(zxid), peerEpoch);
        host.decided(end, s);
    }

    private void updateProposal(long leader, long zxid, long epoch) {
        proposedLeader = leader;
        proposedZxid = zxid;
        proposedEpoch = epoch;
    }

    private void sendNotifications() {
        Notification n = new Notification(proposal());
        for (long sid : voters) {
            transport.send(sid, n);
        }
    }

    private void armNotificationTimer() {
        notificationTimer.cancel();
        notificationTimer = scheduler.schedule(notTimeout, this::notificationTimeout);
    }

    private void notificationTimeout() {
        if (!looking || finalizeTimer != null) {
            return;
        }
        if (transport.haveDelivered()) {
            sendNotifications();
        } else {
            transport.connectAll();
        }
        notTimeout = Math.min(notTimeout * 2, timing.maxNotificationIntervalMs());
        LOG.info("{}: notification timeout in round {}; next in {} ms", tag, logicalClock, notTimeout);
        armNotificationTimer();
    }
}
