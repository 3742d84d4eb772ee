package io.zkchaos.fle.sim;

import io.zkchaos.fle.Bug;
import io.zkchaos.fle.Bugs;
import io.zkchaos.fle.Timing;
import io.zkchaos.fle.election.ServerState;
import io.zkchaos.fle.election.Vote;
import io.zkchaos.fle.peer.ClientReply;
import io.zkchaos.fle.peer.ClientRequest;
import io.zkchaos.fle.peer.PeerListener;
import io.zkchaos.fle.peer.PeerSettings;
import io.zkchaos.fle.peer.PeerStatus;
import io.zkchaos.fle.peer.QuorumPeer;
import io.zkchaos.fle.zab.Entry;
import io.zkchaos.fle.zab.Txn;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;

/**
 * A group of simulated servers on one virtual clock, an in-memory network with a {@link Firewall}, and in-memory
 * durable state — the deterministic test bed for FLE and ZAB (after MicroRaft's group helper). Start, crash and
 * restart servers, cut and delay messages, run virtual time until something holds, and ask servers what a client
 * would.
 *
 * <pre>{@code
 * SimCluster c = SimCluster.builder().servers(3).build();
 * c.startAll();
 * c.runUntil(() -> c.servingLeader().isPresent(), Duration.ofSeconds(10));
 * ClientReply r = c.call(1, new ClientRequest.Submit(new Txn.Put("k", "v")), Duration.ofSeconds(5));
 * }</pre>
 */
public final class SimCluster {

    /** An election result one server reached, when (virtual ms). */
    public record Decision(long time, long sid, Vote vote, ServerState state) {
    }

    /** A server started serving. */
    public record Serving(long time, long sid, ServerState role, long epoch, long leader) {
    }

    /** A server went back to LOOKING, and why. */
    public record Looking(long time, long sid, String reason) {
    }

    /** A server ended its own process (it is down from then on, as if crashed, until started again). */
    public record Exit(long time, long sid, int code, String reason) {
    }

    private final SimClock clock = new SimClock();
    private final Firewall firewall = new Firewall();
    private final SimNetwork network;
    private final SortedSet<Long> sids;
    private final Timing timing;
    private final Map<Long, Bugs> bugs;
    private final Map<Long, MemoryStorage> storages = new HashMap<>();
    private final Map<Long, QuorumPeer> peers = new HashMap<>();
    /** Every incarnation ever started, crashed ones included (their bug path counts add up). */
    private final List<QuorumPeer> incarnationsStarted = new ArrayList<>();
    private final Map<Long, SimClock.Lane> lanes = new HashMap<>();
    private final Map<Long, Integer> incarnations = new HashMap<>();
    private final List<Decision> decisions = new ArrayList<>();
    private final List<Serving> servings = new ArrayList<>();
    private final List<Exit> exits = new ArrayList<>();
    private final List<Looking> lookings = new ArrayList<>();
    private final List<long[]> acks = new ArrayList<>();

    private SimCluster(Builder b) {
        this.sids = new TreeSet<>(b.sids);
        this.timing = b.timing;
        this.bugs = new HashMap<>(b.bugs);
        this.network = new SimNetwork(clock, firewall, b.latencyMs);
        for (long s : sids) {
            storages.put(s, new MemoryStorage());
            incarnations.put(s, 0);
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builds a group; every setting has a default (3 servers, {@link Timing#DEFAULT}, no bugs, 1 ms latency). */
    public static final class Builder {
        private SortedSet<Long> sids = new TreeSet<>(List.of(1L, 2L, 3L));
        private Timing timing = Timing.DEFAULT;
        private final Map<Long, Bugs> bugs = new HashMap<>();
        private Bugs allBugs = Bugs.NONE;
        private long latencyMs = 1;

        /** Servers with SIDs 1..n. */
        public Builder servers(int n) {
            sids = new TreeSet<>();
            for (long i = 1; i <= n; i++) {
                sids.add(i);
            }
            return this;
        }

        public Builder timing(Timing t) {
            this.timing = t;
            return this;
        }

        /** The bugs of every server (unless set per server). */
        public Builder bugs(Bugs b) {
            this.allBugs = b;
            return this;
        }

        public Builder bugs(long sid, Bugs b) {
            bugs.put(sid, b);
            return this;
        }

        public Builder latencyMs(long ms) {
            this.latencyMs = ms;
            return this;
        }

        public SimCluster build() {
            for (long s : sids) {
                bugs.putIfAbsent(s, allBugs);
            }
            return new SimCluster(this);
        }
    }

    public SimClock clock() {
        return clock;
    }

    public Firewall firewall() {
        return firewall;
    }

    public SimNetwork network() {
        return network;
    }

    public SortedSet<Long> sids() {
        return sids;
    }

    /** The durable state of {@code sid} (seed it before the first start). */
    public MemoryStorage storage(long sid) {
        return storages.get(sid);
    }

    /** Starts a fresh incarnation of {@code sid} from its durable state. */
    public void start(long sid) {
        if (peers.containsKey(sid)) {
            throw new IllegalStateException("server " + sid + " is running");
        }
        int inc = incarnations.merge(sid, 1, Integer::sum);
        SimClock.Lane lane = clock.lane("n" + sid + "#" + inc);
        SimNetwork.Endpoint ep = network.attach(sid, lane);
        PeerSettings settings = PeerSettings.of(sid, sids, timing, bugs.get(sid));
        QuorumPeer p = new QuorumPeer(settings, lane, ep, ep, storages.get(sid), inc, new Recorder(),
                (code, why) -> {
                    exits.add(new Exit(clock.now(), sid, code, why));
                    crash(sid);
                });
        peers.put(sid, p);
        incarnationsStarted.add(p);
        lanes.put(sid, lane);
        lane.execute(p::start);
    }

    public void startAll() {
        sids.forEach(this::start);
    }

    /** Kills {@code sid} at once, as {@code SIGKILL} does: what it held in memory is gone. */
    public void crash(long sid) {
        QuorumPeer p = peers.remove(sid);
        if (p == null) {
            throw new IllegalStateException("server " + sid + " is not running");
        }
        lanes.remove(sid).kill();
        network.detach(sid);
    }

    public void restart(long sid) {
        crash(sid);
        start(sid);
    }

    public boolean running(long sid) {
        return peers.containsKey(sid);
    }

    public QuorumPeer peer(long sid) {
        QuorumPeer p = peers.get(sid);
        if (p == null) {
            throw new IllegalStateException("server " + sid + " is not running");
        }
        return p;
    }

    public PeerStatus status(long sid) {
        return peer(sid).status();
    }

    public boolean runUntil(BooleanSupplier condition, Duration virtualLimit) {
        return clock.runUntil(condition, virtualLimit);
    }

    public void run(Duration virtual) {
        clock.run(virtual);
    }

    /** A running server that leads and serves, if there is one (the one with the highest epoch if several). */
    public Optional<Long> servingLeader() {
        return peers.values().stream()
                .map(QuorumPeer::status)
                .filter(s -> s.state() == ServerState.LEADING && s.serving())
                .max((a, b) -> Long.compare(a.currentEpoch(), b.currentEpoch()))
                .map(PeerStatus::myId);
    }

    /** Whether every running server serves, all under one leader. */
    public boolean allServing() {
        Optional<Long> l = servingLeader();
        return l.isPresent() && peers.values().stream().map(QuorumPeer::status)
                .allMatch(s -> s.serving() && s.leader() == l.get());
    }

    /** Runs until a leader serves with every running server following it; fails the test if it never does. */
    public long awaitStable(Duration virtualLimit) {
        if (!runUntil(this::allServing, virtualLimit)) {
            throw new AssertionError("no stable leader within " + virtualLimit + " of virtual time: " + statuses());
        }
        return servingLeader().orElseThrow();
    }

    public List<PeerStatus> statuses() {
        return peers.values().stream().map(QuorumPeer::status).toList();
    }

    /**
     * How often each switched-on bug flag's code path ran, over every server and every incarnation (crashed ones
     * included), as the harness adds up the nodes' counts across restarts; empty when no server has a flag on.
     */
    public Map<Bug, Long> bugPaths() {
        Map<Bug, Long> total = new EnumMap<>(Bug.class);
        for (QuorumPeer p : incarnationsStarted) {
            p.status().bugPaths().forEach((b, n) -> total.merge(b, n, Long::sum));
        }
        return total;
    }

    /** Every election decision so far, in order. */
    public List<Decision> decisions() {
        return List.copyOf(decisions);
    }

    public List<Serving> servings() {
        return List.copyOf(servings);
    }

    /** Every time a server went back to LOOKING (after following or leading), in order. */
    public List<Looking> lookings() {
        return List.copyOf(lookings);
    }

    /** Every time a server ended its own process, in order. */
    public List<Exit> exits() {
        return List.copyOf(exits);
    }

    /** Every ACK sent so far, as (time, sid, zxid). */
    public List<long[]> acks() {
        return List.copyOf(acks);
    }

    /**
     * Asks {@code sid} what a client would, and runs virtual time until it answers.
     *
     * @return the answer, or {@code null} if none came within {@code virtualLimit} (a client would time out)
     */
    public ClientReply call(long sid, ClientRequest request, Duration virtualLimit) {
        ClientReply[] reply = new ClientReply[1];
        QuorumPeer p = peer(sid);
        lanes.get(sid).execute(() -> p.submit(request, r -> reply[0] = r));
        runUntil(() -> reply[0] != null, virtualLimit);
        return reply[0];
    }

    /** A put through {@code sid}: {@code null} if it did not answer within {@code virtualLimit}. */
    public ClientReply put(long sid, String key, String value, Duration virtualLimit) {
        return call(sid, new ClientRequest.Submit(new Txn.Put(key, value)), virtualLimit);
    }

    /** Submits a put through {@code sid} without waiting; the answer goes into the returned one-element array. */
    public ClientReply[] submitPut(long sid, String key, String value) {
        ClientReply[] reply = new ClientReply[1];
        QuorumPeer p = peer(sid);
        lanes.get(sid).execute(() -> p.submit(new ClientRequest.Submit(new Txn.Put(key, value)),
                r -> reply[0] = r));
        return reply;
    }

    /** The committed log of a running server. */
    public List<Entry> committedLog(long sid) {
        return peer(sid).committedLog();
    }

    private final class Recorder implements PeerListener {
        @Override
        public void decided(long myId, Vote vote, ServerState state) {
            decisions.add(new Decision(clock.now(), myId, vote, state));
        }

        @Override
        public void serving(long myId, ServerState role, long epoch, long leader) {
            servings.add(new Serving(clock.now(), myId, role, epoch, leader));
        }

        @Override
        public void looking(long myId, String reason) {
            lookings.add(new Looking(clock.now(), myId, reason));
        }

        @Override
        public void acked(long myId, long zxid) {
            acks.add(new long[] {clock.now(), myId, zxid});
        }
    }
}
