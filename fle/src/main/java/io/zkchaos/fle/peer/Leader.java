package io.zkchaos.fle.peer;

import io.zkchaos.fle.Bug;
import io.zkchaos.fle.Zxid;
import io.zkchaos.fle.sched.Scheduler.Cancellable;
import io.zkchaos.fle.zab.Entry;
import io.zkchaos.fle.zab.History;
import io.zkchaos.fle.zab.Origin;
import io.zkchaos.fle.zab.QuorumChannel;
import io.zkchaos.fle.zab.QuorumMessage;
import io.zkchaos.fle.zab.QuorumTransport;
import io.zkchaos.fle.zab.Txn;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A prospective leader, then an established one (SPEC §5.3), for one epoch. It ends — and the server goes back to
 * LOOKING — when a discovery step misses its {@code initLimit}, when a follower turns out to be ahead of it, or when it
 * has not heard from a quorum for {@code syncLimit}.
 *
 * <ol>
 *   <li><b>Discovery</b>: collect FOLLOWERINFO (acceptedEpoch) from a quorum, itself included; the new epoch is their
 *       maximum + 1, made durable as acceptedEpoch and sent as LEADERINFO. Collect ACKEPOCH (currentEpoch, last zxid)
 *       from a quorum; a follower more recent than the leader ends the leadership. Then currentEpoch := new epoch.</li>
 *   <li><b>Synchronisation</b>: each follower gets a DIFF, TRUNC or SNAP ({@link SyncPlan}) with the proposals it
 *       lacks, then NEWLEADER; once a quorum has ACKed NEWLEADER (their histories are durably the leader's) the leader
 *       is established: its whole history is committed, it serves, and synced followers get UPTODATE. Followers that
 *       come later are synced and told UPTODATE one by one.</li>
 *   <li><b>Broadcast</b>: each write becomes a proposal with the next zxid, logged by the leader and sent to every
 *       synced follower down its FIFO channel; at a quorum of ACKs (the leader's own once its write is durable) it is
 *       committed, in zxid order, and COMMIT goes to the followers.</li>
 * </ol>
 * Runs on the server's scheduler.
 */
final class Leader implements QuorumTransport.Handler {

    private static final Logger LOG = LoggerFactory.getLogger(Leader.class);

    private enum Phase { DISCOVERY, EPOCH_ACK, SYNC, BROADCAST, DONE }

    /** One follower's channel and what the leader knows of it. */
    private static final class Learner {
        final QuorumChannel channel;
        long sid;
        long lastHeard;
        boolean wantSnap;
        boolean epochAcked;
        long peerCurrentEpoch;
        long peerLastZxid;
        /** Set once the sync was sent: proposals and commits now flow to it. */
        boolean forwarding;
        long syncedUpTo;
        boolean newLeaderAcked;

        Learner(QuorumChannel channel, long now) {
            this.channel = channel;
            this.lastHeard = now;
        }

        void send(QuorumMessage m) {
            channel.send(m);
        }
    }

    /** A proposal waiting for its quorum. */
    private static final class Outstanding {
        final Set<Long> acks = new HashSet<>();
        boolean selfAcked;
        /** With {@code commit-on-all-acks}: it had its quorum and was held for the other followers' ACKs. */
        boolean heldForAll;
    }

    private final QuorumPeer peer;
    private final long myId;
    private final int quorum;
    private final String tag;

    private Phase phase = Phase.DISCOVERY;
    private AutoCloseable listening;
    private final Map<QuorumChannel, Learner> byChannel = new LinkedHashMap<>();
    private final Map<Long, Learner> bySid = new LinkedHashMap<>();
    private final Map<Long, Long> connectingEpochs = new LinkedHashMap<>();
    private final Set<Long> epochAcks = new HashSet<>();
    private final Set<Long> newLeaderAcks = new HashSet<>();
    private long newEpoch = -1;
    private long counter;
    private final TreeMap<Long, Outstanding> outstanding = new TreeMap<>();
    private Cancellable phaseTimer = Cancellable.NONE;
    private Cancellable tickTimer = Cancellable.NONE;

    Leader(QuorumPeer peer) {
        this.peer = peer;
        this.myId = peer.myId();
        this.quorum = peer.settings().quorum();
        this.tag = peer.tag() + " (leader)";
    }

    void start() {
        connectingEpochs.put(myId, peer.acceptedEpoch());
        listening = peer.quorumTransport().listen(this);
        armPhaseTimer("a quorum of followers to connect");
        tickTimer = peer.scheduler().schedule(peer.settings().timing().tickMs(), this::tick);
        LOG.info("{}: prospective leader, acceptedEpoch {}; waiting for followers", tag, peer.acceptedEpoch());
        maybeDecideEpoch();
    }

    /** Ends the leadership; the server goes back to LOOKING. */
    private void abandon(String reason) {
        if (phase == Phase.DONE) {
            return;
        }
        stop(reason);
        peer.backToLooking((newEpoch < 0 ? "prospective leader" : "leader of epoch " + newEpoch)
                + " stepped down: " + reason);
    }

    /** Ends the leadership without telling the server (it is stopping). */
    void stop(String reason) {
        if (phase == Phase.DONE) {
            return;
        }
        LOG.info("{}: stopping: {}", tag, reason);
        phase = Phase.DONE;
        phaseTimer.cancel();
        tickTimer.cancel();
        try {
            if (listening != null) {
                listening.close();
            }
        } catch (Exception e) {
            LOG.warn("{}: closing the quorum listener: {}", tag, e.toString());
        }
        for (Learner l : new ArrayList<>(byChannel.values())) {
            l.channel.close();
        }
        byChannel.clear();
        bySid.clear();
    }

    private void armPhaseTimer(String waitingFor) {
        phaseTimer.cancel();
        long limit = peer.settings().timing().initLimitMs();
        phaseTimer = peer.scheduler().schedule(limit, () -> abandon("timed out after " + limit + " ms waiting for "
                + waitingFor));
    }

    // ---- channels

    @Override
    public void onOpen(QuorumChannel channel) {
        if (phase == Phase.DONE) {
            channel.close();
            return;
        }
        byChannel.put(channel, new Learner(channel, peer.scheduler().now()));
    }

    @Override
    public void onClose(QuorumChannel channel, String reason) {
        Learner l = byChannel.remove(channel);
        if (l != null && l.sid != 0) {
            bySid.remove(l.sid, l);
            LOG.info("{}: follower {} disconnected: {}", tag, l.sid, reason);
            if (peer.bugs(Bug.COMMIT_ON_ALL_ACKS) && phase == Phase.BROADCAST) {
                tryCommit(); // one follower fewer to wait for
            }
        }
    }

    @Override
    public void onMessage(QuorumChannel channel, QuorumMessage m) {
        Learner l = byChannel.get(channel);
        if (l == null || phase == Phase.DONE) {
            return;
        }
        l.lastHeard = peer.scheduler().now();
        if (m instanceof QuorumMessage.FollowerInfo f) {
            followerInfo(l, f);
        } else if (l.sid == 0) {
            drop(l, "sent " + m.kind() + " before FOLLOWERINFO");
        } else if (m instanceof QuorumMessage.AckEpoch a) {
            ackEpoch(l, a);
        } else if (m instanceof QuorumMessage.AckNewLeader a) {
            ackNewLeader(l, a);
        } else if (m instanceof QuorumMessage.Ack a) {
            ack(l.sid, a.zxid());
        } else if (m instanceof QuorumMessage.Request r) {
            if (phase == Phase.BROADCAST) {
                propose(r.txn(), r.origin());
            } else {
                LOG.warn("{}: request from {} before the leader is established: dropped", tag, l.sid);
            }
        } else if (!(m instanceof QuorumMessage.Ping)) {
            drop(l, "unexpected " + m.kind());
        }
    }

    private void drop(Learner l, String why) {
        LOG.warn("{}: dropping the channel of {} ({}): {}", tag, l.sid == 0 ? "an unidentified follower" : l.sid,
                l.channel.describe(), why);
        byChannel.remove(l.channel);
        if (l.sid != 0) {
            bySid.remove(l.sid, l);
        }
        l.channel.close();
    }

    // ---- discovery

    private void followerInfo(Learner l, QuorumMessage.FollowerInfo f) {
        if (l.sid != 0) {
            drop(l, "a second FOLLOWERINFO");
            return;
        }
        if (f.sid() == myId || !peer.settings().voters().contains(f.sid())) {
            drop(l, "FOLLOWERINFO from " + f.sid() + ", which is not another voter");
            return;
        }
        Learner old = bySid.get(f.sid());
        if (old != null) {
            drop(old, "it connected again");
        }
        l.sid = f.sid();
        l.wantSnap = f.wantSnap();
        bySid.put(l.sid, l);
        LOG.info("{}: follower {} connected (acceptedEpoch {})", tag, l.sid, f.acceptedEpoch());
        if (newEpoch < 0) {
            connectingEpochs.put(l.sid, f.acceptedEpoch());
            maybeDecideEpoch();
        } else {
            l.send(new QuorumMessage.LeaderInfo(newEpoch));
        }
    }

    private void maybeDecideEpoch() {
        if (newEpoch >= 0 || connectingEpochs.size() < quorum) {
            return;
        }
        long base = connectingEpochs.values().stream().mapToLong(Long::longValue).max().orElseThrow();
        if (peer.bugs(Bug.NO_EPOCH_FENCING) && peer.acceptedEpoch() < base) {
            // The fence takes the quorum's maximum; without it the new epoch is below one a follower accepted.
            peer.bugPaths().ran(Bug.NO_EPOCH_FENCING);
            base = peer.acceptedEpoch();
        }
        newEpoch = base + 1;
        peer.acceptedEpoch(newEpoch);
        phase = Phase.EPOCH_ACK;
        LOG.info("{}: new epoch {} (acceptedEpochs {})", tag, newEpoch, connectingEpochs);
        armPhaseTimer("a quorum to ACK epoch " + newEpoch);
        epochAcks.add(myId);
        for (Learner l : bySid.values()) {
            l.send(new QuorumMessage.LeaderInfo(newEpoch));
        }
        maybeEpochAcked();
    }

    private void ackEpoch(Learner l, QuorumMessage.AckEpoch a) {
        if (newEpoch < 0) {
            drop(l, "ACKEPOCH before LEADERINFO");
            return;
        }
        l.epochAcked = true;
        l.peerCurrentEpoch = a.currentEpoch();
        l.peerLastZxid = a.lastZxid();
        if (phase == Phase.EPOCH_ACK) {
            if (moreRecent(a.currentEpoch(), a.lastZxid())) {
                String why = "follower " + l.sid + " is ahead of the leader: its currentEpoch " + a.currentEpoch()
                        + " and last zxid " + Zxid.show(a.lastZxid()) + " against the leader's "
                        + peer.currentEpoch() + " and " + Zxid.show(peer.history().lastZxid());
                if (!peer.bugs(Bug.NO_EPOCH_FENCING)) {
                    abandon(why);
                    return;
                }
                LOG.warn("{}: {} (no-epoch-fencing: going on, it will be truncated)", tag, why);
                peer.bugPaths().ran(Bug.NO_EPOCH_FENCING);
            }
            epochAcks.add(l.sid);
            maybeEpochAcked();
        } else {
            sync(l);
        }
    }

    private boolean moreRecent(long theirEpoch, long theirZxid) {
        return theirEpoch > peer.currentEpoch()
                || (theirEpoch == peer.currentEpoch() && theirZxid > peer.history().lastZxid());
    }

    private void maybeEpochAcked() {
        if (phase != Phase.EPOCH_ACK || epochAcks.size() < quorum) {
            return;
        }
        peer.currentEpoch(newEpoch);
        peer.updateElectionVote(newEpoch);
        phase = Phase.SYNC;
        armPhaseTimer("a quorum to ACK NEWLEADER of epoch " + newEpoch);
        newLeaderAcks.add(myId);
        for (Learner l : new ArrayList<>(bySid.values())) {
            if (l.epochAcked) {
                sync(l);
            }
        }
        maybeEstablished();
    }

    // ---- synchronisation

    private void sync(Learner l) {
        if (l.forwarding) {
            return;
        }
        History h = peer.history();
        SyncPlan plan = SyncPlan.plan(h, l.peerLastZxid, l.wantSnap, peer.settings().timing().maxDiffEntries());
        LOG.info("{}: syncing follower {} (last zxid {}) by {} {} with {} proposal(s)", tag, l.sid,
                Zxid.show(l.peerLastZxid), plan.kind(), Zxid.show(plan.from()), plan.entries().size());
        switch (plan.kind()) {
            case DIFF -> l.send(new QuorumMessage.Diff(plan.from()));
            case TRUNC -> l.send(new QuorumMessage.Trunc(plan.from()));
            case SNAP -> l.send(new QuorumMessage.Snap(plan.entries()));
        }
        if (plan.kind() != SyncPlan.Kind.SNAP) {
            for (Entry e : plan.entries()) {
                l.send(new QuorumMessage.Proposal(e));
            }
        }
        l.send(new QuorumMessage.NewLeader(newEpoch, h.lastZxid()));
        l.syncedUpTo = h.lastZxid();
        l.forwarding = true;
    }

    private void ackNewLeader(Learner l, QuorumMessage.AckNewLeader a) {
        if (a.epoch() != newEpoch || !l.forwarding) {
            drop(l, "ACK of NEWLEADER " + a.epoch() + " out of place (epoch " + newEpoch + ")");
            return;
        }
        l.newLeaderAcked = true;
        // Its history is durably the leader's up to syncedUpTo: an ACK of every proposal still outstanding there.
        long upTo = Math.min(l.syncedUpTo, a.lastZxid());
        for (Map.Entry<Long, Outstanding> o : outstanding.headMap(upTo, true).entrySet()) {
            o.getValue().acks.add(l.sid);
        }
        if (phase == Phase.SYNC) {
            newLeaderAcks.add(l.sid);
            maybeEstablished();
        } else if (phase == Phase.BROADCAST) {
            l.send(new QuorumMessage.UpToDate(peer.committedZxid()));
            LOG.info("{}: follower {} is synced", tag, l.sid);
            tryCommit();
        }
    }

    private void maybeEstablished() {
        if (phase != Phase.SYNC || newLeaderAcks.size() < quorum) {
            return;
        }
        phase = Phase.BROADCAST;
        phaseTimer.cancel();
        counter = 0;
        // A quorum holds the leader's whole history, durably, in the new epoch: all of it is committed.
        peer.commitUpTo(peer.history().lastZxid());
        peer.leaderEstablished(newEpoch);
        for (Learner l : bySid.values()) {
            if (l.newLeaderAcked) {
                l.send(new QuorumMessage.UpToDate(peer.committedZxid()));
            }
        }
    }

    // ---- broadcast

    void propose(Txn txn, Origin origin) {
        if (phase != Phase.BROADCAST) {
            throw new IllegalStateException(tag + ": propose before the leader is established");
        }
        if (counter == Zxid.MAX_COUNTER) {
            abandon("the zxid counter of epoch " + newEpoch + " is exhausted");
            return;
        }
        long zxid = Zxid.of(newEpoch, ++counter);
        Entry e = new Entry(zxid, txn, origin);
        outstanding.put(zxid, new Outstanding());
        for (Learner l : bySid.values()) {
            if (l.forwarding) {
                l.send(new QuorumMessage.Proposal(e));
            }
        }
        peer.accept(e, () -> selfAck(zxid));
    }

    private void selfAck(long zxid) {
        Outstanding o = outstanding.get(zxid);
        if (o != null && phase == Phase.BROADCAST) {
            o.selfAcked = true;
            peer.listener().acked(myId, zxid);
            tryCommit();
        }
    }

    private void ack(long sid, long zxid) {
        if (phase != Phase.BROADCAST) {
            return;
        }
        Outstanding o = outstanding.get(zxid);
        if (o != null) {
            o.acks.add(sid);
            tryCommit();
        }
    }

    /**
     * Commits, in zxid order, every leading proposal that has its quorum. With {@code commit-before-quorum} one ACK
     * is enough, and each commit with fewer than a quorum of ACKs is that bug's code path. With
     * {@code commit-on-all-acks} a proposal that has its quorum still waits for the leader's own ACK and every synced
     * follower's, and each proposal held so (once each) is that bug's code path.
     */
    private void tryCommit() {
        int needed = peer.bugs(Bug.COMMIT_BEFORE_QUORUM) ? 1 : quorum;
        while (!outstanding.isEmpty() && phase == Phase.BROADCAST) {
            Map.Entry<Long, Outstanding> first = outstanding.firstEntry();
            Outstanding o = first.getValue();
            int acks = o.acks.size() + (o.selfAcked ? 1 : 0);
            if (acks < needed) {
                return;
            }
            if (peer.bugs(Bug.COMMIT_ON_ALL_ACKS) && !ackedByAll(o)) {
                if (!o.heldForAll) {
                    o.heldForAll = true;
                    peer.bugPaths().ran(Bug.COMMIT_ON_ALL_ACKS); // the correct leader commits it now
                }
                return;
            }
            if (acks < quorum) {
                peer.bugPaths().ran(Bug.COMMIT_BEFORE_QUORUM);
            }
            long zxid = first.getKey();
            outstanding.remove(zxid);
            for (Learner l : bySid.values()) {
                if (l.forwarding) {
                    l.send(new QuorumMessage.Commit(zxid));
                }
            }
            peer.commitUpTo(zxid);
        }
    }

    /** Whether the leader and every follower synced with it (it ACKed NEWLEADER) have ACKed {@code o}. */
    private boolean ackedByAll(Outstanding o) {
        if (!o.selfAcked) {
            return false;
        }
        for (Learner l : bySid.values()) {
            if (l.newLeaderAcked && !o.acks.contains(l.sid)) {
                return false;
            }
        }
        return true;
    }

    // ---- liveness

    private void tick() {
        if (phase == Phase.DONE) {
            return;
        }
        tickTimer = peer.scheduler().schedule(peer.settings().timing().tickMs(), this::tick);
        for (Learner l : bySid.values()) {
            l.send(new QuorumMessage.Ping());
        }
        if (phase == Phase.BROADCAST) {
            long now = peer.scheduler().now();
            long limit = peer.settings().timing().syncLimitMs();
            List<Long> synced = new ArrayList<>();
            synced.add(myId);
            for (Learner l : bySid.values()) {
                if (l.newLeaderAcked && now - l.lastHeard <= limit) {
                    synced.add(l.sid);
                }
            }
            if (synced.size() < quorum) {
                abandon("only " + synced + " heard from within " + limit + " ms, not a quorum of "
                        + peer.settings().voters());
            }
        }
    }
}
