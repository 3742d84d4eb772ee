package io.zkchaos.fle.peer;

import io.zkchaos.fle.Bug;
import io.zkchaos.fle.Zxid;
import io.zkchaos.fle.sched.Scheduler.Cancellable;
import io.zkchaos.fle.storage.StorageException;
import io.zkchaos.fle.zab.Entry;
import io.zkchaos.fle.zab.Origin;
import io.zkchaos.fle.zab.QuorumChannel;
import io.zkchaos.fle.zab.QuorumMessage;
import io.zkchaos.fle.zab.QuorumTransport;
import io.zkchaos.fle.zab.Txn;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A follower of one leader in one epoch (SPEC §5.3): connect, send FOLLOWERINFO, accept the new epoch if it is not
 * below its acceptedEpoch (else back to election), ACKEPOCH with its currentEpoch and last zxid, take the DIFF, TRUNC
 * or SNAP, make it durable and take the epoch as current at NEWLEADER, serve at UPTODATE; then log and ACK each
 * proposal, apply each commit. It goes back to LOOKING when the channel closes or the leader is silent for
 * {@code syncLimit} ({@code initLimit} while connecting and syncing). Runs on the server's scheduler.
 */
final class Follower implements QuorumTransport.Handler {

    private static final Logger LOG = LoggerFactory.getLogger(Follower.class);

    private enum Phase { CONNECTING, DISCOVERY, SYNC, SYNCED, SERVING, DONE }

    private final QuorumPeer peer;
    private final long leaderId;
    private final String tag;

    private Phase phase = Phase.CONNECTING;
    private QuorumChannel channel;
    private long startedAt;
    private long lastHeard;
    private long newEpoch = -1;
    private Cancellable tickTimer = Cancellable.NONE;

    Follower(QuorumPeer peer, long leaderId) {
        this.peer = peer;
        this.leaderId = leaderId;
        this.tag = peer.tag() + " (follower of " + leaderId + ")";
    }

    void start() {
        startedAt = peer.scheduler().now();
        tickTimer = peer.scheduler().schedule(peer.settings().timing().tickMs(), this::tick);
        connect();
    }

    private void connect() {
        channel = peer.quorumTransport().connect(leaderId, this);
    }

    private void abandon(String reason) {
        if (phase == Phase.DONE) {
            return;
        }
        stop(reason);
        peer.backToLooking("follower of " + leaderId + (newEpoch >= 0 ? " in epoch " + newEpoch : "") + ": "
                + reason);
    }

    void stop(String reason) {
        if (phase == Phase.DONE) {
            return;
        }
        LOG.debug("{}: stopping: {}", tag, reason);
        phase = Phase.DONE;
        tickTimer.cancel();
        if (channel != null) {
            channel.close();
        }
    }

    /** Sends a client's write to the leader; the answer comes when its commit is applied here. */
    void forward(Origin origin, Txn txn) {
        channel.send(new QuorumMessage.Request(origin, txn));
    }

    @Override
    public void onOpen(QuorumChannel c) {
        if (c != channel || phase != Phase.CONNECTING) {
            return;
        }
        phase = Phase.DISCOVERY;
        lastHeard = peer.scheduler().now();
        c.send(new QuorumMessage.FollowerInfo(peer.myId(), peer.acceptedEpoch(), peer.wantSnap()));
    }

    @Override
    public void onClose(QuorumChannel c, String reason) {
        if (c != channel || phase == Phase.DONE) {
            return;
        }
        if (phase == Phase.CONNECTING || phase == Phase.DISCOVERY) {
            long elapsed = peer.scheduler().now() - startedAt;
            long limit = peer.settings().timing().initLimitMs();
            if (elapsed < limit) {
                // The leader may not lead yet (it decides a moment after us, and closes what comes before): try
                // again next tick, within initLimit, as ZooKeeper's follower retries its connection.
                LOG.debug("{}: cannot register with the leader yet ({}); retrying", tag, reason);
                phase = Phase.CONNECTING;
                channel = null;
                peer.scheduler().schedule(peer.settings().timing().tickMs(), () -> {
                    if (phase == Phase.CONNECTING) {
                        connect();
                    }
                });
                return;
            }
            abandon("cannot connect to the leader within " + limit + " ms: " + reason);
            return;
        }
        abandon("connection to the leader lost: " + reason);
    }

    /**
     * Handles one message from the leader. An unchecked exception out of the handling (a storage failure aside, which
     * stops the node) ends the following, as ZooKeeper's follower ends {@code followLeader} on any exception: it is
     * logged with its stack trace and the server goes back to LOOKING — it rejoins a leader with a fresh sync.
     */
    @Override
    public void onMessage(QuorumChannel c, QuorumMessage m) {
        if (c != channel || phase == Phase.DONE) {
            return;
        }
        try {
            handle(c, m);
        } catch (StorageException e) {
            throw e; // it can no longer keep its promises: the node stops
        } catch (RuntimeException e) {
            LOG.warn("{}: exception when following the leader n{}, handling {} in phase {}", tag, leaderId, m.kind(),
                    phase, e);
            abandon("exception when following the leader: " + e);
        }
    }

    private void handle(QuorumChannel c, QuorumMessage m) {
        lastHeard = peer.scheduler().now();
        if (m instanceof QuorumMessage.Ping) {
            c.send(m);
        } else if (m instanceof QuorumMessage.LeaderInfo li && phase == Phase.DISCOVERY) {
            leaderInfo(li.newEpoch());
        } else if (m instanceof QuorumMessage.Diff d && phase == Phase.SYNC) {
            LOG.info("sync with leader n{}: DIFF from zxid {}", leaderId, Zxid.show(d.afterZxid()));
            if (d.afterZxid() != peer.history().lastZxid()) {
                peer.wantSnap(true);
                abandon("DIFF after " + Zxid.show(d.afterZxid()) + " does not follow my last zxid "
                        + Zxid.show(peer.history().lastZxid()));
            }
        } else if (m instanceof QuorumMessage.Trunc t && phase == Phase.SYNC) {
            LOG.info("sync with leader n{}: TRUNC to zxid {} from my last zxid {}", leaderId, Zxid.show(t.toZxid()),
                    Zxid.show(peer.history().lastZxid()));
            truncate(t.toZxid());
        } else if (m instanceof QuorumMessage.Snap s && phase == Phase.SYNC) {
            LOG.info("sync with leader n{}: SNAP of {} proposal(s) replacing my {}", leaderId, s.history().size(),
                    peer.history().size());
            peer.replaceHistory(s.history());
            peer.wantSnap(false);
        } else if (m instanceof QuorumMessage.Proposal p && phase.compareTo(Phase.SYNC) >= 0) {
            proposal(p.entry());
        } else if (m instanceof QuorumMessage.NewLeader nl && phase == Phase.SYNC) {
            newLeader(nl);
        } else if (m instanceof QuorumMessage.Commit cm && phase.compareTo(Phase.SYNCED) >= 0) {
            commit(cm.zxid());
        } else if (m instanceof QuorumMessage.UpToDate u && phase == Phase.SYNCED) {
            peer.commitUpTo(u.committedZxid());
            phase = Phase.SERVING;
            peer.followerServing(newEpoch, leaderId);
        } else {
            abandon("unexpected " + m + " in phase " + phase);
        }
    }

    private void leaderInfo(long epoch) {
        long accepted = peer.acceptedEpoch();
        if (epoch < accepted) {
            if (!peer.bugs(Bug.NO_EPOCH_FENCING)) {
                abandon("the leader's epoch " + epoch + " is below my acceptedEpoch " + accepted);
                return;
            }
            peer.bugPaths().ran(Bug.NO_EPOCH_FENCING); // the fence would have refused this epoch
            LOG.warn("{}: the leader's epoch {} is below my acceptedEpoch {} (no-epoch-fencing: accepted)", tag,
                    epoch, accepted);
        }
        if (epoch != accepted) {
            peer.acceptedEpoch(epoch);
        }
        newEpoch = epoch;
        phase = Phase.SYNC;
        channel.send(new QuorumMessage.AckEpoch(peer.currentEpoch(), peer.history().lastZxid()));
    }

    private void truncate(long zxid) {
        if (zxid != 0 && !peer.history().contains(zxid)) {
            // Our history and the leader's part before zxid: only a snapshot can fix it.
            peer.wantSnap(true);
            abandon("told to truncate to " + Zxid.show(zxid) + ", which is not in my history; asking for a SNAP");
            return;
        }
        if (peer.bugs(Bug.EXIT_ON_TRUNC)) {
            // The correct follower cuts its log back here; this one gives up on it and ends its process.
            peer.bugPaths().ran(Bug.EXIT_ON_TRUNC);
            String why = "cannot truncate my log to " + Zxid.show(zxid) + " (last zxid "
                    + Zxid.show(peer.history().lastZxid()) + ") as leader n" + leaderId + " asks; exiting";
            LOG.error("{}: {}", tag, why);
            stop(why);
            peer.exitProcess(PeerExit.STOPPED_ITSELF, why);
            return;
        }
        peer.truncateAfter(zxid);
    }

    /**
     * Applies a COMMIT. One may come between NEWLEADER and UPTODATE: the leader forwards commits to a follower as
     * soon as it sent the follower's sync, and writes go on while the ACK of NEWLEADER is on its way.
     */
    private void commit(long zxid) {
        if (phase == Phase.SYNCED && peer.bugs(Bug.THROW_ON_EARLY_COMMIT)) {
            peer.bugPaths().ran(Bug.THROW_ON_EARLY_COMMIT); // the correct follower applies it
            throw new IllegalStateException("COMMIT of " + Zxid.show(zxid) + " before UPTODATE: follower n"
                    + peer.myId() + " does not serve yet");
        }
        peer.commitUpTo(zxid);
    }

    private void proposal(Entry e) {
        if (e.zxid() <= peer.history().lastZxid()) {
            abandon("proposal " + Zxid.show(e.zxid()) + " does not follow my last zxid "
                    + Zxid.show(peer.history().lastZxid()));
            return;
        }
        if (phase == Phase.SYNC) {
            // Part of the synchronisation: made durable before the ACK of NEWLEADER.
            peer.accept(e, DurableLog.NO_ACK);
            return;
        }
        long zxid = e.zxid();
        peer.accept(e, () -> {
            if (phase == Phase.SYNCED || phase == Phase.SERVING) {
                channel.send(new QuorumMessage.Ack(zxid));
                peer.listener().acked(peer.myId(), zxid);
            }
        });
    }

    private void newLeader(QuorumMessage.NewLeader nl) {
        if (nl.epoch() != newEpoch) {
            abandon("NEWLEADER of epoch " + nl.epoch() + " after LEADERINFO of epoch " + newEpoch);
            return;
        }
        peer.log().sync();
        peer.currentEpoch(newEpoch);
        peer.updateElectionVote(newEpoch);
        phase = Phase.SYNCED;
        LOG.info("{}: synced to {} in epoch {}", tag, Zxid.show(peer.history().lastZxid()), newEpoch);
        channel.send(new QuorumMessage.AckNewLeader(newEpoch, peer.history().lastZxid()));
    }

    private void tick() {
        if (phase == Phase.DONE) {
            return;
        }
        tickTimer = peer.scheduler().schedule(peer.settings().timing().tickMs(), this::tick);
        if (phase == Phase.CONNECTING) {
            long elapsed = peer.scheduler().now() - startedAt;
            if (elapsed > 2 * peer.settings().timing().initLimitMs()) {
                abandon("still not connected to the leader after " + elapsed + " ms");
            }
            return;
        }
        long silent = peer.scheduler().now() - lastHeard;
        long limit = phase == Phase.SERVING ? peer.settings().timing().syncLimitMs()
                : peer.settings().timing().initLimitMs();
        if (silent > limit) {
            abandon("no word from the leader for " + silent + " ms (limit " + limit + " ms)");
        }
    }
}
