package io.zkchaos.workloads.election;

import java.io.Closeable;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The herd-free leader-election recipe of ZooKeeper's documentation (SPEC §5.1), for one candidate on one session.
 *
 * <p>To volunteer, the candidate creates {@code ELECTION/n_<guid>-<seq>} (EPHEMERAL_SEQUENTIAL) and reads the
 * children. If its sequence number is the smallest, it leads; else it sets an {@code exists} watch on the node just
 * below it only (or, with {@link Watching#SMALLEST}, on the smallest node — the naive recipe kept for measuring the
 * herd effect) and, when that fires, reads the children again.
 *
 * <p>The edge cases it handles:
 * <ul>
 *   <li>the watched node vanishes between {@code getChildren} and {@code exists}: {@code exists} returns null and
 *       the candidate re-reads the children at once instead of waiting for an event that will never come;</li>
 *   <li>connection loss during {@code create}: the node may exist. The name carries a per-candidacy GUID (like
 *       Curator's protected mode), so the candidate looks for it in the children before creating again, and
 *       deletes any extra node of its own it finds later;</li>
 *   <li>a disconnected leader stops leading at once ({@link ReleaseReason#DISCONNECTED}); when the session comes
 *       back it deletes its old node and volunteers again with a new one (a new, larger token), as Curator's
 *       LeaderLatch does on RECONNECTED;</li>
 *   <li>session expiry: the ephemeral is gone; a leader stops at once ({@link ReleaseReason#SESSION_EXPIRED}) and the
 *       recipe ends ({@link Listener#ended}) — volunteering again needs a new session, so the owner (one process =
 *       one session) starts a new recipe on a new one. ZooKeeper reports Disconnected before it can report Expired,
 *       so a connected leader whose session is closed by the servers usually releases with {@code disconnected}
 *       first; {@code session-expired} is recorded when expiry is the first thing it learns;</li>
 *   <li>its own node deleted under a live session: a leader watches its own node and stops
 *       ({@link ReleaseReason#NODE_DELETED}), then volunteers again;</li>
 *   <li>connection loss during the delete at {@link #close()}: the node may still exist, and an ephemeral of a
 *       live session stays until it is deleted, so it would block every candidate behind it — the session's own
 *       next candidacy included — for as long as the session lives. Its GUID goes to the session's leftovers
 *       (shared by the session's successive candidacies), and the next candidacy deletes such nodes before it
 *       decides anything, retrying after every reconnection.</li>
 * </ul>
 *
 * <p>Lifecycle: {@code LATENT → STARTED → CLOSED} in an {@link AtomicReference}, changed by compare-and-set.
 * {@link #close()} is the only way to give up leadership. All ZooKeeper calls and all listener callbacks run on one
 * thread per recipe, in order, so a listener sees a consistent sequence (volunteering, acquired, releasing, released,
 * ...). The listener races with reality as every recipe does: by the time {@code acquired} runs, the session may
 * already be gone; {@code releasing} comes as soon as the recipe learns it, not when leadership was really lost.
 *
 * <p>The owner must forward the session's connection events to {@link #sessionEvent}.
 */
public final class LeaderElection implements Closeable {

    private static final Logger LOG = LoggerFactory.getLogger(LeaderElection.class);
    private static final String NODE_PREFIX = "n_";
    private static final int MAX_RECHECKS = 1000;

    /** The lifecycle. */
    public enum State {
        LATENT, STARTED, CLOSED
    }

    /** Which node a waiting candidate watches. */
    public enum Watching {
        /** The node just below its own: one candidate wakes per change (herd-free). */
        PREDECESSOR,
        /** The smallest node: every candidate wakes when the leader goes (the herd effect). */
        SMALLEST
    }

    /** What the recipe tells its owner, on the recipe's thread, in order. Callbacks must not block for long. */
    public interface Listener {
        /** A candidacy begins (at start, and again after a release the recipe recovers from on this session). */
        default void volunteering() {
        }

        /** It learned it leads. */
        default void acquired(Leadership leadership) {
        }

        /** It stops believing it leads: called at once, before any cleanup. */
        default void releasing(Leadership leadership, ReleaseReason reason) {
        }

        /** The cleanup after {@link #releasing} is done. */
        default void released(Leadership leadership, ReleaseReason reason) {
        }

        /**
         * The recipe will do nothing more: {@code closed} (by {@link #close()}), {@code session-expired}, or
         * {@code session-closed} (the handle was already closed when it tried to volunteer).
         */
        default void ended(String why) {
        }
    }

    /** Test seams at the points where the recipe's races live. */
    @FunctionalInterface
    public interface Hooks {
        Hooks NONE = path -> { };

        /** Called between {@code getChildren} and the {@code exists} that watches {@code path}. */
        void beforeWatch(String path);
    }

    private final ZooKeeper zk;
    private final String electionPath;
    private final String id;
    private final Watching watching;
    private final Listener listener;
    private final HerdCounters counters;
    private final Hooks hooks;
    private final Duration closeTimeout;
    private final Set<String> leftovers;
    private final List<ACL> acl;
    private final AtomicReference<State> state = new AtomicReference<>(State.LATENT);
    private final ExecutorService executor;
    private volatile Thread executorThread;
    private volatile boolean hasLeadership;

    // Confined to the executor thread.
    private long generation;
    private String guid;
    private String ourPath;
    private long ourSeq;
    private long ourCzxid;
    private boolean createAttempted;
    private Watcher predecessorWatcher;
    private Leadership leading;
    private boolean resetOnReconnect;
    private boolean ended;

    /**
     * @param zk           the candidate's session (owned by the caller; the recipe never closes it)
     * @param electionPath the ELECTION znode; must exist
     * @param id           the candidate's name (stored in its node and reported as {@code node})
     * @param watching     herd-free ({@link Watching#PREDECESSOR}) or naive ({@link Watching#SMALLEST})
     * @param listener     told of every change, on the recipe's thread
     * @param counters     where notifications and getChildren calls are counted (may be shared)
     * @param hooks        test seams; {@link Hooks#NONE} in production
     * @param closeTimeout how long {@link #close()} waits for the cleanup
     */
    public LeaderElection(ZooKeeper zk, String electionPath, String id, Watching watching, Listener listener,
                          HerdCounters counters, Hooks hooks, Duration closeTimeout) {
        this(zk, electionPath, id, watching, listener, counters, hooks, closeTimeout, ConcurrentHashMap.newKeySet());
    }

    /**
     * As above, for one of several successive candidacies on one session.
     *
     * @param leftovers the session's <em>leftover candidacies</em>, shared by all its candidacies (thread-safe,
     *                  e.g. {@link ConcurrentHashMap#newKeySet()}): the GUIDs of earlier candidacies on this session
     *                  that gave up but whose node may still exist, because the delete at {@link #close()} met a
     *                  connection loss (or their create's outcome was unknown). A live session's ephemeral stays
     *                  until it is deleted, so such a node would block every candidate behind it for as long as the
     *                  session lives, the session's own new candidacy included. This candidacy deletes them before
     *                  anything else, and again after every reconnection until it succeeds; its own close adds its
     *                  GUID when its delete did not certainly happen.
     */
    public LeaderElection(ZooKeeper zk, String electionPath, String id, Watching watching, Listener listener,
                          HerdCounters counters, Hooks hooks, Duration closeTimeout, Set<String> leftovers) {
        this(zk, electionPath, id, watching, listener, counters, hooks, closeTimeout, leftovers,
                ZooDefs.Ids.OPEN_ACL_UNSAFE);
    }

    /**
     * As above, the candidate's nodes created with {@code acl} (the session's own:
     * {@link io.zkchaos.workloads.ZnodeAcls#forClient}).
     */
    public LeaderElection(ZooKeeper zk, String electionPath, String id, Watching watching, Listener listener,
                          HerdCounters counters, Hooks hooks, Duration closeTimeout, Set<String> leftovers,
                          List<ACL> acl) {
        this.acl = Objects.requireNonNull(acl, "acl"); // as given: ZooKeeper asks it whether it contains null
        this.leftovers = Objects.requireNonNull(leftovers, "leftovers");
        this.zk = Objects.requireNonNull(zk, "zk");
        this.electionPath = Objects.requireNonNull(electionPath, "electionPath");
        this.id = Objects.requireNonNull(id, "id");
        this.watching = Objects.requireNonNull(watching, "watching");
        this.listener = Objects.requireNonNull(listener, "listener");
        this.counters = Objects.requireNonNull(counters, "counters");
        this.hooks = Objects.requireNonNull(hooks, "hooks");
        this.closeTimeout = Objects.requireNonNull(closeTimeout, "closeTimeout");
        this.executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "election-" + id);
            t.setDaemon(true);
            executorThread = t;
            return t;
        });
    }

    /** A herd-free candidate with no hooks and a 5 s close timeout. */
    public LeaderElection(ZooKeeper zk, String electionPath, String id, Listener listener, HerdCounters counters) {
        this(zk, electionPath, id, Watching.PREDECESSOR, listener, counters, Hooks.NONE, Duration.ofSeconds(5));
    }

    /** Volunteers. Throws if already started or closed. */
    public void start() {
        if (!state.compareAndSet(State.LATENT, State.STARTED)) {
            throw new IllegalStateException("cannot start a candidate that is " + state.get());
        }
        submit(this::volunteer);
    }

    public State state() {
        return state.get();
    }

    /**
     * Whether it currently believes it leads (it may be wrong: see the class comment). Set just before the listener's
     * {@code acquired} is called and cleared just before its {@code releasing}, as Curator's LeaderLatch does: a
     * thread that sees {@code true} may read the listener before it has been told. Wait for the listener's event to
     * know what the listener knows.
     */
    public boolean hasLeadership() {
        return hasLeadership;
    }

    /** Connection-state events of the session ({@code None}-typed); others are ignored. Never blocks. */
    public void sessionEvent(WatchedEvent event) {
        if (event.getType() == Watcher.Event.EventType.None) {
            Watcher.Event.KeeperState s = event.getState();
            submit(() -> onSessionState(s));
        }
    }

    /**
     * Gives up: a leader records {@link ReleaseReason#CLOSED} and deletes its node; a waiting candidate deletes its
     * node. Waits at most the close timeout. Idempotent; may be called from a listener callback.
     */
    @Override
    public void close() {
        State previous = state.getAndSet(State.CLOSED);
        if (previous == State.CLOSED) {
            return;
        }
        if (previous == State.LATENT) {
            executor.shutdown();
            return;
        }
        if (Thread.currentThread() == executorThread) {
            doClose();
            executor.shutdown();
            return;
        }
        try {
            Future<?> f = executor.submit(this::doClose);
            f.get(closeTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException | RejectedExecutionException e) {
            LOG.warn("candidate {}: close did not finish cleanly: {}", id, e.toString());
        } finally {
            executor.shutdown();
        }
    }

    // ---- on the recipe's thread --------------------------------------------------------------------------------

    private void submit(Runnable task) {
        try {
            executor.execute(() -> {
                try {
                    task.run();
                } catch (RuntimeException e) {
                    LOG.error("candidate {}: recipe step failed", id, e);
                }
            });
        } catch (RejectedExecutionException e) {
            // closed: nothing more to do
        }
    }

    private boolean active() {
        return state.get() == State.STARTED && !ended;
    }

    /**
     * Whether it may still act: a handle closed by its owner means the process died, and a dead candidate does
     * nothing more. (An expired handle is closed too, but the Expired event is handled before this matters.)
     */
    private boolean canAct() {
        return active() && zk.getState().isAlive();
    }

    private void volunteer() {
        if (!active()) {
            return;
        }
        if (!zk.getState().isAlive()) {
            // The session ended while no candidacy listened (e.g. between two candidacies): say so, so the owner
            // retires the process instead of waiting for events that will never come.
            ended = true;
            listener.ended("session-closed");
            return;
        }
        generation++;
        long gen = generation;
        // One watcher object per candidacy: the client keeps a set of watcher objects per path, so setting the
        // same one again after a re-check does not make one change notify this candidate twice.
        predecessorWatcher = event -> onWatchedNode(gen, event);
        guid = UUID.randomUUID().toString();
        ourPath = null;
        createAttempted = false;
        listener.volunteering();
        advance();
    }

    /**
     * Makes sure this candidacy has its node, then decides: lead, or watch the node to wait for. Idempotent: it is
     * run again after every notification and reconnection.
     */
    private void advance() {
        if (!canAct() || leading != null || generation == 0) {
            // generation 0: not volunteered yet. A session event can reach a new candidacy just before its start
            // (the session's SyncConnected, delivered late) and run first: it must not create a node or lead
            // before the listener has heard "volunteering", or the history would show a leader that never asked.
            return;
        }
        try {
            for (int round = 0; round < MAX_RECHECKS; round++) {
                if (ourPath == null && !createAttempted) {
                    createAttempted = true;
                    try {
                        Stat stat = new Stat();
                        String created = zk.create(electionPath + "/" + NODE_PREFIX + guid + "-",
                                id.getBytes(StandardCharsets.UTF_8), acl,
                                CreateMode.EPHEMERAL_SEQUENTIAL, stat);
                        adopt(created, stat.getCzxid());
                    } catch (KeeperException e) {
                        if (!isConnectionProblem(e)) {
                            throw e;
                        }
                        // The create may have happened: the children will tell (found by the GUID below).
                        LOG.info("candidate {}: {} during create; looking for its node", id, e.code());
                    }
                }
                List<String> children = zk.getChildren(electionPath, false);
                counters.listed(); // counted once the server answered: the load the herd effect is about
                if (!leftovers.isEmpty()) {
                    children = removeLeftovers(children);
                }
                List<String> candidates = new ArrayList<>();
                List<String> ours = new ArrayList<>();
                for (String c : children) {
                    if (c.startsWith(NODE_PREFIX) && sequenceOf(c) >= 0) {
                        candidates.add(c);
                        if (c.startsWith(NODE_PREFIX + guid + "-")) {
                            ours.add(c);
                        }
                    }
                }
                candidates.sort(Comparator.comparingLong(LeaderElection::sequenceOf));
                ours.sort(Comparator.comparingLong(LeaderElection::sequenceOf));
                if (ourPath == null) {
                    if (ours.isEmpty()) {
                        createAttempted = false; // the lost create did not happen: create now
                        continue;
                    }
                    Stat stat = zk.exists(electionPath + "/" + ours.get(0), false);
                    if (stat == null) {
                        continue;
                    }
                    adopt(electionPath + "/" + ours.get(0), stat.getCzxid());
                }
                String ourName = ourPath.substring(electionPath.length() + 1);
                for (String extra : ours) {
                    if (!extra.equals(ourName)) {
                        // A create we thought lost did happen: one candidate must have one node.
                        deleteQuietly(electionPath + "/" + extra);
                        candidates.remove(extra);
                    }
                }
                int index = candidates.indexOf(ourName);
                if (index < 0) {
                    // Our node is gone while the session lives (deleted by someone): a new candidacy, same session.
                    LOG.info("candidate {}: its node {} is gone; volunteering again", id, ourName);
                    guid = UUID.randomUUID().toString();
                    ourPath = null;
                    createAttempted = false;
                    continue;
                }
                if (index == 0) {
                    becomeLeader();
                    return;
                }
                String target = electionPath + "/"
                        + candidates.get(watching == Watching.PREDECESSOR ? index - 1 : 0);
                hooks.beforeWatch(target);
                Stat stat = zk.exists(target, predecessorWatcher);
                if (stat != null) {
                    return; // wait for the notification
                }
                // It vanished between getChildren and exists: re-check at once; no event would ever come.
            }
            LOG.warn("candidate {}: gave up re-checking after {} rounds; will retry on the next event", id,
                    MAX_RECHECKS);
        } catch (KeeperException e) {
            onError(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Deletes the nodes of this session's leftover candidacies found among {@code children} and forgets every
     * leftover that is gone; returns the children that remain. A connection loss propagates: the next
     * reconnection runs {@link #advance()} again, which tries again.
     */
    private List<String> removeLeftovers(List<String> children) throws KeeperException, InterruptedException {
        Set<String> known = Set.copyOf(leftovers);
        List<String> remaining = new ArrayList<>();
        for (String c : children) {
            String g = guidOf(c);
            if (g != null && known.contains(g)) {
                LOG.info("candidate {}: deleting {}, left behind by an earlier candidacy of its session", id, c);
                try {
                    zk.delete(electionPath + "/" + c, -1);
                } catch (KeeperException.NoNodeException e) {
                    // gone already
                }
            } else {
                remaining.add(c);
            }
        }
        // Every leftover node found is deleted now, and the others were not there: nothing is left of them.
        leftovers.removeAll(known);
        return remaining;
    }

    private void adopt(String path, long czxid) {
        ourPath = path;
        ourSeq = sequenceOf(path.substring(path.lastIndexOf('/') + 1));
        ourCzxid = czxid;
    }

    private void onWatchedNode(long gen, WatchedEvent event) {
        if (event.getType() == Watcher.Event.EventType.None) {
            return;
        }
        counters.notified();
        submit(() -> {
            if (gen == generation) {
                advance();
            }
        });
    }

    private void becomeLeader() throws KeeperException, InterruptedException {
        leading = new Leadership(ourSeq, ourCzxid, id, ourPath);
        hasLeadership = true;
        listener.acquired(leading);
        long gen = generation;
        String path = ourPath;
        // Watch our own node: if it is deleted under a live session we must stop leading.
        if (zk.exists(path, event -> onOwnNode(gen, event)) == null) {
            release(ReleaseReason.NODE_DELETED, false);
            volunteer();
        }
    }

    private void onOwnNode(long gen, WatchedEvent event) {
        if (event.getType() != Watcher.Event.EventType.NodeDeleted) {
            return;
        }
        submit(() -> {
            if (gen == generation && leading != null && active()) {
                release(ReleaseReason.NODE_DELETED, false);
                volunteer();
            }
        });
    }

    private void release(ReleaseReason reason, boolean deleteNode) {
        Leadership l = leading;
        leading = null;
        hasLeadership = false;
        LOG.info("candidate {}: stops leading (token {}): {}", id, l.token(), reason.wireName());
        listener.releasing(l, reason);
        if (deleteNode && !deleteQuietly(l.path())) {
            leftovers.add(guid);
        }
        listener.released(l, reason);
    }

    private void onSessionState(Watcher.Event.KeeperState s) {
        if (!active()) {
            return;
        }
        switch (s) {
            case Disconnected -> {
                if (leading != null) {
                    release(ReleaseReason.DISCONNECTED, false);
                    resetOnReconnect = true;
                }
            }
            case SyncConnected -> {
                if (resetOnReconnect) {
                    // We may have lost leadership while away: give the old node up and stand again with a new token.
                    try {
                        if (ourPath != null) {
                            zk.delete(ourPath, -1);
                        }
                    } catch (KeeperException.NoNodeException e) {
                        // already gone
                    } catch (KeeperException e) {
                        onError(e);
                        return;
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                    resetOnReconnect = false;
                    volunteer();
                } else {
                    advance(); // a notification may have been missed while away
                }
            }
            case Expired -> expire();
            default -> {
                // AuthFailed, Closed, ...: nothing the recipe can act on
            }
        }
    }

    private void onError(KeeperException e) {
        if (e.code() == KeeperException.Code.SESSIONEXPIRED) {
            expire();
        } else if (isConnectionProblem(e)) {
            // The SyncConnected event (or the Expired one) will run the next step.
            LOG.debug("candidate {}: {}; waiting for the session", id, e.code());
        } else {
            LOG.warn("candidate {}: unexpected {}; will retry on the next event", id, e.toString());
        }
    }

    private void expire() {
        if (ended) {
            return;
        }
        if (leading != null) {
            release(ReleaseReason.SESSION_EXPIRED, false);
        }
        ended = true;
        listener.ended("session-expired");
    }

    private void doClose() {
        if (ended) {
            return;
        }
        if (leading != null) {
            release(ReleaseReason.CLOSED, true);
        } else if (ourPath != null) {
            if (!deleteQuietly(ourPath)) {
                leftovers.add(guid);
            }
        } else if (createAttempted) {
            leftovers.add(guid); // its create's outcome is unknown: a node may exist
        }
        ended = true;
        listener.ended("closed");
    }

    /**
     * Deletes {@code path}; returns whether it is certainly gone (deleted, already gone, or the session expired and
     * took it). False after a connection loss: the delete may not have happened.
     */
    private boolean deleteQuietly(String path) {
        try {
            zk.delete(path, -1);
            return true;
        } catch (KeeperException.NoNodeException | KeeperException.SessionExpiredException e) {
            return true;
        } catch (KeeperException e) {
            LOG.info("candidate {}: could not delete {}: {}", id, path, e.code());
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    static boolean isConnectionProblem(KeeperException e) {
        return switch (e.code()) {
            case CONNECTIONLOSS, OPERATIONTIMEOUT, REQUESTTIMEOUT, SESSIONMOVED -> true;
            default -> false;
        };
    }

    /** The candidacy GUID in a node name ({@code n_<guid>-0000000007} → guid), or null if it has none. */
    static String guidOf(String name) {
        int dash = name.lastIndexOf('-');
        if (!name.startsWith(NODE_PREFIX) || dash <= NODE_PREFIX.length()) {
            return null;
        }
        return name.substring(NODE_PREFIX.length(), dash);
    }

    /** The sequence number at the end of a node name ({@code n_<guid>-0000000007} → 7), or -1 if none. */
    static long sequenceOf(String name) {
        int dash = name.lastIndexOf('-');
        if (dash < 0 || dash == name.length() - 1) {
            return -1;
        }
        try {
            return Long.parseLong(name.substring(dash + 1));
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
