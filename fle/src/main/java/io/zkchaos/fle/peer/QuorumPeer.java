package io.zkchaos.fle.peer;

import io.zkchaos.fle.Bug;
import io.zkchaos.fle.BugPaths;
import io.zkchaos.fle.Zxid;
import io.zkchaos.fle.election.ElectionTransport;
import io.zkchaos.fle.election.FastLeaderElection;
import io.zkchaos.fle.election.Notification;
import io.zkchaos.fle.election.ServerState;
import io.zkchaos.fle.election.Vote;
import io.zkchaos.fle.sched.Scheduler;
import io.zkchaos.fle.storage.Storage;
import io.zkchaos.fle.zab.Entry;
import io.zkchaos.fle.zab.History;
import io.zkchaos.fle.zab.KvState;
import io.zkchaos.fle.zab.Origin;
import io.zkchaos.fle.zab.QuorumTransport;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One server: FLE to find a leader, then ZAB as {@link Leader} or {@link Follower}, back to LOOKING when that ends.
 * It owns what outlives a leadership — the history, the durable epochs, the applied key-value state — and serves
 * clients.
 *
 * <p>Every method runs on the server's {@link Scheduler}, except {@link #status()}, which reads a snapshot published
 * after every change so that it answers at once from any thread, whatever the server is doing.
 */
public final class QuorumPeer implements FastLeaderElection.Host {

    private static final Logger LOG = LoggerFactory.getLogger(QuorumPeer.class);

    private final PeerSettings settings;
    private final Scheduler scheduler;
    private final ElectionTransport electionTransport;
    private final QuorumTransport quorumTransport;
    private final Storage storage;
    private final long incarnation;
    private final PeerListener listener;
    private final PeerExit exit;
    private final BugPaths bugPaths;
    private final FastLeaderElection fle;
    private final String tag;

    private DurableLog log;
    private final History history = new History();
    private final KvState kv = new KvState();
    private long acceptedEpoch;
    private long currentEpoch;
    private long committedZxid;
    private int appliedCount;
    private boolean wantSnap;

    private ServerState state = ServerState.LOOKING;
    private Vote currentVote;
    private boolean serving;
    private Leader leader;
    private Follower follower;
    private boolean stopped;
    private boolean started;

    private long nextRequest;
    private final Map<Long, Consumer<ClientReply>> pending = new HashMap<>();

    private volatile PeerStatus published;

    /**
     * @param incarnation a number no earlier run of this server used (the start time, say): it tells this run's
     *                    client requests from those of runs before a restart
     * @param exit        how the server ends its own process (only a bug flag's code path does)
     */
    public QuorumPeer(PeerSettings settings, Scheduler scheduler, ElectionTransport electionTransport,
                      QuorumTransport quorumTransport, Storage storage, long incarnation, PeerListener listener,
                      PeerExit exit) {
        this.settings = settings;
        this.scheduler = scheduler;
        this.electionTransport = electionTransport;
        this.quorumTransport = quorumTransport;
        this.storage = storage;
        this.incarnation = incarnation;
        this.listener = listener;
        this.exit = exit;
        this.tag = "n" + settings.myId();
        this.bugPaths = new BugPaths(settings.bugs());
        this.fle = new FastLeaderElection(this, settings.voters(), scheduler, electionTransport, settings.timing(),
                bugPaths);
        this.currentVote = new Vote(settings.myId(), 0, 0, 0, ServerState.LOOKING);
        this.published = new PeerStatus(settings.myId(), ServerState.LOOKING, false, -1, 0, 0, 0, 0, 0,
                bugPaths.counts());
    }

    /** Reads the durable state back and starts looking for a leader. Runs on the scheduler. */
    public void start() {
        start(storage.load());
    }

    /** Starts from durable state already read from this peer's storage. Runs on the scheduler. */
    public void start(Storage.Persisted p) {
        if (started) {
            throw new IllegalStateException(tag + " started twice");
        }
        started = true;
        acceptedEpoch = p.acceptedEpoch();
        currentEpoch = p.currentEpoch();
        history.replace(p.history());
        log = new DurableLog(storage, scheduler, bugPaths, settings.timing().ackBeforeDurableDelayMs());
        LOG.info("{}: starting with acceptedEpoch {}, currentEpoch {}, {} logged proposals (last {}), bugs: {}", tag,
                acceptedEpoch, currentEpoch, history.size(), Zxid.show(history.lastZxid()), settings.bugs());
        electionTransport.start(this::onNotification);
        state = ServerState.LOOKING;
        logState();
        publish();
        fle.lookForLeader();
        publish();
    }

    /** Stops leading, following and electing; answers what is pending as indeterminate. Runs on the scheduler. */
    public void stop() {
        if (stopped) {
            return;
        }
        stopped = true;
        fle.stop();
        if (leader != null) {
            leader.stop("server stopping");
            leader = null;
        }
        if (follower != null) {
            follower.stop("server stopping");
            follower = null;
        }
        if (log != null) {
            log.sync();
        }
        serving = false;
        failPending("the server is stopping");
        publish();
    }

    // ---- FastLeaderElection.Host

    @Override
    public long myId() {
        return settings.myId();
    }

    @Override
    public ServerState state() {
        return state;
    }

    @Override
    public Vote currentVote() {
        return currentVote;
    }

    @Override
    public long lastLoggedZxid() {
        return history.lastZxid();
    }

    @Override
    public long currentEpoch() {
        return currentEpoch;
    }

    @Override
    public void decided(Vote vote, ServerState newState) {
        currentVote = vote;
        state = newState;
        logState();
        listener.decided(myId(), vote, newState);
        if (newState == ServerState.LEADING) {
            leader = new Leader(this);
            publish();
            leader.start();
        } else {
            follower = new Follower(this, vote.leader());
            publish();
            follower.start();
        }
        publish();
    }

    // ---- what Leader and Follower use

    PeerSettings settings() {
        return settings;
    }

    Scheduler scheduler() {
        return scheduler;
    }

    QuorumTransport quorumTransport() {
        return quorumTransport;
    }

    History history() {
        return history;
    }

    DurableLog log() {
        return log;
    }

    PeerListener listener() {
        return listener;
    }

    /** Ends this server's process (see {@link PeerExit}); the caller does nothing more. */
    void exitProcess(int code, String reason) {
        exit.exit(code, reason);
    }

    String tag() {
        return tag;
    }

    boolean bugs(Bug b) {
        return bugPaths.on(b);
    }

    /** Where Leader and Follower count the runs of their bugs' code paths. */
    BugPaths bugPaths() {
        return bugPaths;
    }

    long acceptedEpoch() {
        return acceptedEpoch;
    }

    void acceptedEpoch(long e) {
        storage.acceptedEpoch(e);
        acceptedEpoch = e;
        publish();
    }

    void currentEpoch(long e) {
        storage.currentEpoch(e);
        currentEpoch = e;
        publish();
    }

    /** The vote other servers hear from us now carries the new epoch (ZooKeeper's {@code updateElectionVote}). */
    void updateElectionVote(long epoch) {
        currentVote = currentVote.withPeerEpoch(epoch);
    }

    boolean wantSnap() {
        return wantSnap;
    }

    void wantSnap(boolean b) {
        wantSnap = b;
    }

    long committedZxid() {
        return committedZxid;
    }

    /** Accepts a proposal into the history; {@code onDurable} runs once it is logged (see {@link DurableLog}). */
    void accept(Entry e, Runnable onDurable) {
        history.append(e);
        log.append(e, onDurable);
        publish();
    }

    /** Drops every proposal after {@code zxid}, durably; a committed one dropped resets the applied state. */
    void truncateAfter(long zxid) {
        log.truncateAfter(zxid);
        int dropped = history.truncateAfter(zxid);
        LOG.info("{}: truncated {} proposal(s) after {}", tag, dropped, Zxid.show(zxid));
        if (committedZxid > zxid) {
            LOG.warn("{}: truncation to {} drops proposals it knew committed (up to {})", tag, Zxid.show(zxid),
                    Zxid.show(committedZxid));
            committedZxid = zxid;
            resetApplied();
        }
        publish();
    }

    /** Replaces the history with a leader's (SNAP), durably; nothing is known committed until UPTODATE. */
    void replaceHistory(List<Entry> entries) {
        log.replace(entries);
        history.replace(entries);
        committedZxid = 0;
        resetApplied();
        LOG.info("{}: history replaced by a snapshot of {} proposal(s), last {}", tag, entries.size(),
                Zxid.show(history.lastZxid()));
        publish();
    }

    private void resetApplied() {
        kv.clear();
        appliedCount = 0;
    }

    /** Everything up to {@code zxid} is committed: apply it in order and answer the clients waiting for it. */
    void commitUpTo(long zxid) {
        if (zxid <= committedZxid) {
            return;
        }
        if (zxid > history.lastZxid()) {
            LOG.error("{}: told {} is committed, but my history ends at {}", tag, Zxid.show(zxid),
                    Zxid.show(history.lastZxid()));
            zxid = history.lastZxid();
        }
        committedZxid = zxid;
        while (appliedCount < history.size() && history.get(appliedCount).zxid() <= committedZxid) {
            Entry e = history.get(appliedCount++);
            KvState.Outcome o = kv.apply(e.txn());
            listener.applied(myId(), e);
            Origin origin = e.origin();
            if (origin.sid() == myId() && origin.incarnation() == incarnation) {
                Consumer<ClientReply> reply = pending.remove(origin.request());
                if (reply != null) {
                    reply.accept(outcome(e, o));
                }
            }
        }
        publish();
    }

    private static ClientReply outcome(Entry e, KvState.Outcome o) {
        if (!o.ok()) {
            return new ClientReply.Rejected(o.error());
        }
        if (e.txn() instanceof io.zkchaos.fle.zab.Txn.SyncRead) {
            return new ClientReply.Value(o.value());
        }
        return new ClientReply.Written(e.zxid(), o.value());
    }

    void leaderEstablished(long epoch) {
        serving = true;
        LOG.info("{}: SERVING as leader of epoch {} (history up to {})", tag, epoch, Zxid.show(history.lastZxid()));
        listener.serving(myId(), ServerState.LEADING, epoch, myId());
        publish();
    }

    void followerServing(long epoch, long leaderId) {
        serving = true;
        // The exact line a log checker reads; the detail follows on its own line.
        LOG.info("serving as follower of n{} in epoch {}", leaderId, epoch);
        LOG.info("{}: SERVING as follower of {} in epoch {} (history up to {}, committed {})", tag, leaderId, epoch,
                Zxid.show(history.lastZxid()), Zxid.show(committedZxid));
        listener.serving(myId(), ServerState.FOLLOWING, epoch, leaderId);
        publish();
    }

    /** The leader or follower ended: answer what is pending, and elect again. */
    void backToLooking(String reason) {
        leader = null;
        follower = null;
        if (stopped) {
            return;
        }
        serving = false;
        state = ServerState.LOOKING;
        LOG.info("{}: LOOKING: {}", tag, reason);
        logState();
        failPending(reason);
        listener.looking(myId(), reason);
        fle.lookForLeader();
        publish();
    }

    /**
     * Logs the state the server just took, in the one stable form a log checker reads (issue 34):
     * {@code peer state LOOKING (epoch 1)}, {@code peer state FOLLOWING leader n3 (epoch 1)},
     * {@code peer state LEADING (epoch 1)}; the epoch is the server's currentEpoch at the change.
     */
    private void logState() {
        LOG.info("peer state {}{} (epoch {})", state,
                state == ServerState.FOLLOWING ? " leader n" + currentVote.leader() : "", currentEpoch);
    }

    private void failPending(String reason) {
        if (pending.isEmpty()) {
            return;
        }
        List<Consumer<ClientReply>> replies = new ArrayList<>(pending.values());
        pending.clear();
        ClientReply r = new ClientReply.Indeterminate("the server left its leader before the outcome was known: "
                + reason);
        replies.forEach(c -> c.accept(r));
    }

    // ---- clients

    /** Handles one client request; {@code reply} is called once, on the scheduler. */
    public void submit(ClientRequest request, Consumer<ClientReply> reply) {
        if (request instanceof ClientRequest.Status) {
            reply.accept(new ClientReply.Status(status()));
            return;
        }
        if (!serving || stopped) {
            reply.accept(new ClientReply.Rejected("not serving: server " + myId() + " is " + state
                    + (state == ServerState.LOOKING ? "" : " and not synced with its leader yet")));
            return;
        }
        if (request instanceof ClientRequest.Get g) {
            reply.accept(new ClientReply.Value(kv.get(g.key())));
        } else if (request instanceof ClientRequest.ReadLog) {
            reply.accept(new ClientReply.Log(history.upTo(committedZxid)));
        } else if (request instanceof ClientRequest.Submit s) {
            long id = ++nextRequest;
            Origin origin = new Origin(myId(), incarnation, id);
            pending.put(id, reply);
            if (leader != null) {
                leader.propose(s.txn(), origin);
            } else {
                follower.forward(origin, s.txn());
            }
        }
    }

    // ---- observation

    /** The state as last published, with the bug paths' counts as they are now; safe from any thread. */
    public PeerStatus status() {
        return published.withBugPaths(bugPaths.counts());
    }

    private void publish() {
        long leaderId = state == ServerState.LOOKING ? -1 : currentVote.leader();
        published = new PeerStatus(myId(), state, serving, leaderId, currentEpoch, acceptedEpoch, history.lastZxid(),
                committedZxid, fle.logicalClock(), bugPaths.counts());
    }

    /** The committed log (for tests and the node's shutdown report); runs on the scheduler. */
    public List<Entry> committedLog() {
        return history.upTo(committedZxid);
    }

    /** The whole history, committed or not; runs on the scheduler. */
    public List<Entry> historySnapshot() {
        return history.snapshot();
    }

    /** The applied value of {@code key}; runs on the scheduler. */
    public String applied(String key) {
        return kv.get(key);
    }

    /** Proposals accepted but not yet on disk; runs on the scheduler. */
    public int undurable() {
        return log == null ? 0 : log.pending();
    }

    /** Hands a notification to the election (what the transport's receiver calls). */
    public void onNotification(long from, Notification n) {
        if (stopped) {
            return;
        }
        fle.onNotification(from, n);
        publish();
    }
}
