package io.zkchaos.nemesis.faults;

import io.zkchaos.nemesis.DataReplacement;
import io.zkchaos.nemesis.Fault;
import io.zkchaos.nemesis.FaultRecord;
import io.zkchaos.nemesis.Felt;
import io.zkchaos.nemesis.NemesisTarget;
import io.zkchaos.nemesis.NodeState;
import io.zkchaos.nemesis.PowerFailure;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * The faults of {@link Fault.Family#CRASH}: nodes SIGKILLed (the leader, a random one, a majority, all), power
 * failures that lose or tear what was not fsynced ({@link PowerFailure}), a replaced disk ({@link DataReplacement}),
 * and crash-restart cycles (killed and started again on their data within the fault); undone by
 * {@link #restartDown}. Every start acts, then returns what it did as a {@link FaultRecord} named for the fault being
 * run.
 *
 * <p>Not thread-safe: one nemesis drives one cluster.
 */
public final class CrashFaults {

    private final Acting on;

    /** @param fault the fault being run: the name its records carry */
    public CrashFaults(NemesisTarget target, String fault) {
        this(new Acting(target, fault));
    }

    CrashFaults(Acting on) {
        this.on = on;
    }

    /** SIGKILLs the leader. */
    public FaultRecord killLeader() {
        return on.onEachSeen("kill", List.of(on.requireLeader()), on.cluster::kill, NodeState.DOWN);
    }

    /** SIGKILLs a random running node. */
    public FaultRecord killRandom() {
        return on.onEachSeen("kill", List.of(on.pick(on.running())), on.cluster::kill, NodeState.DOWN);
    }

    /** SIGKILLs a random majority of the nodes (those already down count towards it). */
    public FaultRecord killMajority() {
        List<String> chosen = new ArrayList<>(on.shuffled().subList(0, on.cluster.quorumSize()));
        Collections.sort(chosen);
        return on.onEachSeen("kill", chosen, on.cluster::kill, NodeState.DOWN);
    }

    /**
     * SIGKILLs every running node, one right after the other in a seeded order: the whole ensemble loses power, so
     * whatever no node had written out yet is gone (a node that acknowledged a write it had not written loses it).
     */
    public FaultRecord killAll() {
        List<String> order = on.shuffled().stream().filter(n -> on.cluster.state(n) != NodeState.DOWN).toList();
        return on.onEachSeen("kill", order, on.cluster::kill, NodeState.DOWN);
    }

    // ---- power failures ({@link PowerFailure}) ----

    /**
     * SIGKILLs a random running node and drops every write it had not fsynced (its data must be on a file system that
     * holds writes until fsync: the local backend's lazy file system).
     *
     * @throws IllegalStateException when the system cannot drop unsynced writes
     */
    public FaultRecord killLoseUnfsynced() {
        return on.onEachSeen("kill, dropping unfsynced writes,", List.of(on.pick(on.running())), this::killLosing,
                NodeState.DOWN);
    }

    /**
     * SIGKILLs every node at once and drops every write none of them had fsynced: a power failure of the whole
     * ensemble. What a server acknowledged without fsyncing it (ZooKeeper with {@code forceSync=no}) is gone
     * everywhere.
     *
     * @throws IllegalStateException when the system cannot drop unsynced writes
     */
    public FaultRecord killAllLoseUnfsynced() {
        freeze(on.cluster.nodes(), "drop");
        return on.onEachSeen("kill, dropping unfsynced writes,", on.cluster.nodes(), this::killLosing,
                NodeState.DOWN);
    }

    /**
     * Stops every running node of {@code nodes} (SIGSTOP) before any of them is killed, so that the power fails for
     * all at once: killed one after another, the last ones lived on for as long as each kill and its file system's
     * work took (seconds on a loaded machine), long enough to elect a leader among themselves and snapshot, which no
     * ensemble whose power fails can do.
     */
    private void freeze(List<String> nodes, String verb) {
        power(verb, nodes.get(0)); // refused, as each node's own kill would be, before anything is stopped
        nodes.stream().filter(n -> on.cluster.state(n) == NodeState.RUNNING).forEach(on.cluster::pause);
    }

    /** The system as able to {@code verb} ("drop", "tear") {@code node}'s unsynced writes, or the refusal. */
    private PowerFailure power(String verb, String node) {
        return on.control(PowerFailure.class, verb + " " + node + "'s unsynced writes: its data is not on a file "
                + "system that holds writes until fsync");
    }

    private void killLosing(String node) {
        PowerFailure power = power("drop", node);
        Acting.refusedAsState(() -> {
            power.killLosingUnsyncedWrites(node);
            return null;
        });
    }

    /**
     * SIGKILLs a random running node in the middle of writing back: of each of its files' bytes written and not
     * fsynced, a seeded prefix reaches its disk and the rest is lost ({@link PowerFailure#killTearingUnsyncedWrites}).
     *
     * @throws IllegalStateException when the system cannot tear unsynced writes
     */
    public FaultRecord killTearUnfsynced() {
        return tearing(List.of(on.pick(on.running())));
    }

    /**
     * A power failure of the whole ensemble in the middle of writing back: every node SIGKILLed, each file keeping a
     * seeded prefix of what it had not fsynced.
     *
     * @throws IllegalStateException when the system cannot tear unsynced writes
     */
    public FaultRecord killAllTearUnfsynced() {
        freeze(on.cluster.nodes(), "tear");
        return tearing(on.cluster.nodes());
    }

    private FaultRecord tearing(List<String> nodes) {
        List<String> steps = new ArrayList<>();
        List<Felt> felt = new ArrayList<>();
        for (String node : nodes) {
            long seed = on.choices.upTo("tear-seed", Integer.MAX_VALUE);
            PowerFailure power = power("tear", node);
            String torn = Acting.refusedAsState(() -> power.killTearingUnsyncedWrites(node, seed));
            steps.add(node + " (tear seed " + seed + ": " + torn + ")");
            on.seen(node, NodeState.DOWN).ifPresent(felt::add);
        }
        return on.record("kill, tearing unfsynced writes, " + String.join(", ", steps), nodes).withFelt(felt);
    }

    // ---- a replaced disk ({@link DataReplacement}) ----

    /**
     * A replaced disk: SIGKILLs a random running follower, empties its data directory but for its identity
     * ({@link DataReplacement#replaceDisk}: its host re-imaged), and after a seeded delay of up to {@code maxDelay}
     * starts it on the empty directory, then waits up to {@code serveBound} until it serves again (it has synced the
     * whole tree from the leader). A follower, not the leader: a server that forgot what it acknowledged must not vote
     * in an election before it has synced (ZAB assumes a server keeps what it acknowledged; an emptied one could help
     * elect a server that misses a committed write), and the leader's kill would bring one about at once.
     *
     * @throws IllegalStateException when no follower runs or the system cannot empty a data directory
     */
    public FaultRecord replaceDisk(Duration maxDelay, Duration serveBound) {
        String leader = on.requireLeader();
        List<String> followers = on.running();
        followers.remove(leader);
        if (followers.isEmpty()) {
            throw new IllegalStateException("no running follower (leader " + leader + ")");
        }
        String node = on.pick(followers);
        DataReplacement disks = on.control(DataReplacement.class, "empty " + node + "'s data directory");
        Acting.refusedAsState(() -> {
            disks.replaceDisk(node);
            return null;
        });
        List<Felt> felt = on.seenEach(List.of(node), NodeState.DOWN);
        long ms = on.delayMillis(maxDelay);
        Acting.sleep(ms);
        on.cluster.start(node);
        return on.record("kill " + node + ", empty its data directory (its id kept), restart it on the empty "
                + "directory after " + ms + " ms" + on.serving(node, serveBound), List.of(node)).withFelt(felt);
    }

    // ---- crash-restart cycles (the process is killed and started again on its data within the fault) ----

    /** SIGKILLs a random running node and starts it again on its data after a seeded delay of up to {@code maxDelay}. */
    public FaultRecord restartRandom(Duration maxDelay) {
        return crashRestart(List.of(on.pick(on.running())), maxDelay);
    }

    /** SIGKILLs the leader and starts it again on its data after a seeded delay of up to {@code maxDelay}. */
    public FaultRecord restartLeader(Duration maxDelay) {
        return crashRestart(List.of(on.requireLeader()), maxDelay);
    }

    /**
     * The whole ensemble crashes: every node is SIGKILLed (in a seeded order), then after a seeded delay of up to
     * {@code maxDelay} all are started again on their data (in another seeded order).
     */
    public FaultRecord restartAll(Duration maxDelay) {
        return crashRestart(on.shuffled(), maxDelay);
    }

    /**
     * A subset of the nodes crashes together: a seeded number (at least two) of the running nodes, in a seeded
     * order, are SIGKILLed one right after the other; after a seeded delay of up to {@code maxDelay} all of them but
     * one are started again on their data (in a seeded order, the last of which stays down until
     * {@link #restartDown}).
     */
    public FaultRecord crashSubsetLeaveOne(Duration maxDelay) {
        List<String> running = on.running();
        if (running.size() < 2) {
            throw new IllegalStateException("a subset crash needs at least two running nodes; running " + running);
        }
        List<String> order = on.choices.order(on.cluster, running);
        List<String> subset = order.subList(0, 2 + on.choices.below("count", running.size() - 1));
        long ms = on.delayMillis(maxDelay);
        subset.forEach(on.cluster::kill);
        List<Felt> felt = on.seenEach(subset, NodeState.DOWN);
        Acting.sleep(ms);
        List<String> restart = on.choices.order(on.cluster, subset);
        String staysDown = restart.get(restart.size() - 1);
        restart.subList(0, restart.size() - 1).forEach(on.cluster::start);
        List<String> sorted = new ArrayList<>(subset);
        Collections.sort(sorted);
        return on.record("kill " + String.join(", ", subset) + "; restart "
                + String.join(", ", restart.subList(0, restart.size() - 1)) + " on their data after " + ms
                + " ms; " + staysDown + " stays down until the heal", sorted).withFelt(felt);
    }

    /**
     * A node crashes again while it rejoins: a random running node is SIGKILLed, started again on its data after a
     * seeded delay of up to {@code maxDelay}, and SIGKILLed again a seeded time in {@code [least, most]} after that
     * start, while it loads its data, elects and syncs with the leader; it stays down until {@link #restartDown}.
     */
    public FaultRecord crashRestartCrash(Duration maxDelay, Duration least, Duration most) {
        String node = on.pick(on.running());
        long down = on.delayMillis(maxDelay);
        long rejoining = least.toMillis() + on.choices.upTo("rejoin-ms", most.toMillis() - least.toMillis());
        on.cluster.kill(node);
        List<Felt> felt = on.seenEach(List.of(node), NodeState.DOWN);
        Acting.sleep(down);
        on.cluster.start(node);
        Acting.sleep(rejoining);
        on.cluster.kill(node);
        return on.record("kill " + node + "; restart it on its data after " + down + " ms; kill it again "
                + rejoining + " ms after it started; it stays down until the heal", List.of(node)).withFelt(felt);
    }

    /**
     * Each node in turn (seeded order): SIGKILL, start again on its data, wait until it serves (up to
     * {@code serveBound}), then the next. A node that does not serve in time is recorded as such, and the roll goes
     * on.
     */
    public FaultRecord rollingRestart(Duration serveBound) {
        List<String> order = on.shuffled();
        List<String> steps = new ArrayList<>();
        List<Felt> felt = new ArrayList<>();
        for (String node : order) {
            on.cluster.kill(node);
            on.seen(node, NodeState.DOWN).ifPresent(felt::add);
            on.cluster.start(node);
            steps.add("restart " + node + on.serving(node, serveBound));
        }
        return on.record(String.join("; ", steps), order).withFelt(felt);
    }

    /**
     * Lagging followers: SIGKILLs a seeded number of followers (1 on 3 nodes, 1 or 2 on 5: never the quorum), so that
     * the clients' writes go on without them; {@link #catchUp} brings them back.
     */
    public FaultRecord stopFollowers() {
        String leader = on.requireLeader();
        List<String> running = on.running();
        running.remove(leader);
        List<String> followers = on.choices.order(on.cluster, running);
        int most = Math.min(followers.size(), on.cluster.nodes().size() - on.cluster.quorumSize());
        if (most < 1) {
            throw new IllegalStateException("no follower can be stopped without losing the quorum (nodes "
                    + on.cluster.nodes() + ", running " + on.running() + ")");
        }
        List<String> chosen = new ArrayList<>(followers.subList(0, 1 + on.choices.below("count", most)));
        Collections.sort(chosen);
        return on.onEachSeen("kill (to lag behind)", chosen, on.cluster::kill, NodeState.DOWN);
    }

    /** Kills every one of {@code nodes} (in order), waits a seeded delay, starts them again (in a seeded order). */
    private FaultRecord crashRestart(List<String> nodes, Duration maxDelay) {
        long ms = on.delayMillis(maxDelay);
        nodes.forEach(on.cluster::kill);
        List<Felt> felt = on.seenEach(nodes, NodeState.DOWN);
        Acting.sleep(ms);
        List<String> restart = on.choices.order(on.cluster, nodes);
        restart.forEach(on.cluster::start);
        List<String> sorted = new ArrayList<>(nodes);
        Collections.sort(sorted);
        return on.record("kill " + String.join(", ", nodes) + "; restart " + String.join(", ", restart)
                + " on their data after " + ms + " ms", sorted).withFelt(felt);
    }

    // ---- undoing ----

    /** Starts every node that is down, on its data: recorded as {@code restart}. */
    public FaultRecord restartDown() {
        return Acting.onEachIndependently("restart", "restart", on.in(NodeState.DOWN), on.cluster::start);
    }

    /** Kills and starts {@code node} again on its data: recorded as {@code restart}. */
    public FaultRecord restart(String node) {
        on.cluster.restart(node);
        return FaultRecord.process("restart", "restart", List.of(node));
    }

    /**
     * Brings every node that is down back, one at a time (seeded order), each catching up with the leader before
     * the next starts (waiting up to {@code serveBound}): recorded as {@code catch-up}. When more than one node lags,
     * a seeded coin decides whether the leader is crash-restarted after the first is back, so that the next ones
     * catch up from a new leader, which may be the node that has just caught up itself.
     */
    public FaultRecord catchUp(Duration serveBound, Duration maxDelay) {
        List<String> down = on.choices.order(on.cluster, on.in(NodeState.DOWN));
        boolean newLeader = down.size() > 1 && on.choices.coin("new-leader");
        List<String> steps = new ArrayList<>();
        List<String> acted = new ArrayList<>(down);
        for (int i = 0; i < down.size(); i++) {
            String node = down.get(i);
            on.cluster.start(node);
            steps.add("restart " + node + on.serving(node, serveBound));
            if (i == 0 && newLeader) {
                Optional<String> leader = on.leader();
                if (leader.isPresent()) {
                    String l = leader.get();
                    long ms = on.delayMillis(maxDelay);
                    on.cluster.kill(l);
                    Acting.sleep(ms);
                    on.cluster.start(l);
                    steps.add("crash-restart leader " + l + " after " + ms + " ms" + on.serving(l, serveBound));
                    acted.add(l);
                } else {
                    steps.add("no leader to crash-restart");
                }
            }
        }
        return new FaultRecord("catch-up", steps.isEmpty() ? "nothing was down" : String.join("; ", steps),
                acted.stream().distinct().toList(), List.of(), new java.util.TreeMap<>());
    }
}
