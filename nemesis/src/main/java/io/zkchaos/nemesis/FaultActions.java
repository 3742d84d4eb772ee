package io.zkchaos.nemesis;

import io.zkchaos.nemesis.net.CutMode;
import io.zkchaos.nemesis.net.Link;
import io.zkchaos.nemesis.net.Stream;
import io.zkchaos.nemesis.net.Toxic;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;
import io.zkchaos.nemesis.net.LinkNetwork;
import io.zkchaos.nemesis.partition.Partition;
import io.zkchaos.nemesis.partition.Partitions;

/**
 * The fault actions, imperative: partition shapes applied to the links of a {@link NemesisTarget}, process
 * faults on its nodes (kills, pauses, crash-restart cycles), and process faults on its client processes
 * ({@link ClientControl}). Every method acts, then returns what it did as a {@link FaultRecord}. Every choice (which
 * node, which order, which delay, who leads) goes through the target's {@link Choices}: drawn from its seeded random
 * source, so a seeded schedule repeats, or repeated from an earlier action's {@link Aim}. The faults at moments of a
 * protocol are {@link SyncFaultActions}. The named {@link Fault}s of {@link Faults} are built from these; tests and
 * library users call them directly.
 *
 * <p>Partition shapes are those of {@link Partitions} (Jepsen's): isolate one node; halves (a minority of the first
 * ⌊n/2⌋ nodes in name order against the rest); random halves (the same over a shuffle); bridge (two halves that
 * share one node, which hears both); majorities ring (nodes on a shuffled ring, each hearing the majority-sized
 * window around it, so every node sees a majority and no two see the same one). A new partition replaces the
 * previous one.
 *
 * <p>Not thread-safe: one nemesis drives one cluster.
 */
public final class FaultActions {

    /** How long an undoing action waits before it tries a node that failed once again. */
    private static final Duration RETRY_AFTER = Duration.ofSeconds(1);

    private final NodeControl cluster;
    private final LinkNetwork links;
    private final Choices choices;
    private final ClientControl clients;

    public FaultActions(NemesisTarget target) {
        this.cluster = target.nodes();
        this.links = target.links();
        this.choices = target.choices();
        this.clients = target.clients();
    }

    // ---- partitions (shapes from io.zkchaos.nemesis.partition.Partitions) ----

    /** Cuts the current leader off from every other node. */
    public FaultRecord isolateLeader() {
        return apply("isolate-leader", Partitions.isolate(cluster.nodes(), requireLeader()));
    }

    /** Cuts a random node off from every other node. */
    public FaultRecord isolateRandom() {
        return apply("isolate-random", Partitions.isolate(cluster.nodes(), choices.node(cluster, cluster.nodes())));
    }

    /**
     * Cuts the lowest-named follower (a running node that does not lead) off from every other node, black-holing its
     * peer links ({@link CutMode#BLACKHOLE}: connections stay open, nothing passes), so that it learns of the cut
     * only by its own timeout and keeps serving its clients from its last state until then. Its client link is
     * untouched. The cut mode in force before is restored for later cuts.
     */
    public FaultRecord isolateFollower() {
        String leader = requireLeader();
        String follower = running().stream().filter(n -> !n.equals(leader)).sorted().findFirst()
                .orElseThrow(() -> new IllegalStateException("no running follower (leader " + leader + ")"));
        CutMode before = links.cutMode();
        links.cutMode(CutMode.BLACKHOLE);
        try {
            return apply("isolate-follower", Partitions.isolate(cluster.nodes(), follower));
        } finally {
            links.cutMode(before);
        }
    }

    /** Cuts {@code node} off from every other node. */
    public FaultRecord isolate(String node) {
        return apply("isolate", Partitions.isolate(cluster.nodes(), node));
    }

    /** The first ⌊n/2⌋ nodes (by name) against the rest. */
    public FaultRecord halves() {
        return apply("halves", Partitions.halves(cluster.nodes()));
    }

    /** A random minority against the rest. */
    public FaultRecord randomHalves() {
        return apply("random-halves", Partitions.randomHalvesInOrder(shuffled()));
    }

    /** Two halves that do not hear each other, both hearing one bridge node. */
    public FaultRecord bridge() {
        return apply("bridge", Partitions.bridgeInOrder(shuffled()));
    }

    /**
     * Nodes on a shuffled ring; each hears the window of a majority of nodes around itself. With 3 nodes the
     * grudge is one-way.
     */
    public FaultRecord majoritiesRing() {
        return apply("majorities-ring", Partitions.majoritiesRingInOrder(shuffled()));
    }

    /** Heals every link (peers and clients, cuts and toxics). */
    public FaultRecord heal() {
        List<Felt> felt = links.feltSinceHeal(); // what the fault in force did, before the heal ends it
        links.heal();
        return FaultRecord.partition("heal", Partitions.heal(cluster.nodes())).withFelt(felt);
    }

    /** Cuts {@code node}'s client link: its clients are disconnected and cannot reconnect to it. */
    public FaultRecord cutClient(String node) {
        links.cutClient(node);
        return FaultRecord.process("cut-client", "cut the client link of", List.of(node));
    }

    /** Heals {@code node}'s client link. */
    public FaultRecord healClient(String node) {
        links.healClient(node);
        return FaultRecord.process("heal-client", "heal the client link of", List.of(node));
    }

    /** Cuts every client link: clients reach no server (sessions expire if that outlasts their timeout). */
    public FaultRecord cutAllClients() {
        List<String> nodes = cluster.nodes();
        nodes.forEach(links::cutClient);
        return FaultRecord.process("client-partition", "cut the client links of", nodes);
    }

    /**
     * Adds latency with jitter to both streams of every link (toxics named {@code slow_upstream},
     * {@code slow_downstream}); {@link #heal()} removes it.
     */
    public FaultRecord slowNetwork(Duration latency, Duration jitter) {
        for (Link link : links.allLinks()) {
            for (Stream s : Stream.values()) {
                String name = "slow_" + s.name().toLowerCase(Locale.ROOT);
                if (link.toxics().stream().noneMatch(t -> t.name().equals(name))) {
                    link.addToxic(Toxic.latency(name, s, latency.toMillis(), jitter.toMillis()));
                }
            }
        }
        return FaultRecord.process("slow-network", "added " + latency.toMillis() + " ms ± " + jitter.toMillis()
                + " ms latency to every link of", cluster.nodes());
    }

    private FaultRecord apply(String fault, Partition partition) {
        links.apply(partition);
        return FaultRecord.partition(fault, partition);
    }

    // ---- processes ----

    /** SIGKILLs the leader. */
    public FaultRecord killLeader() {
        return onEachSeen("kill-leader", "kill", List.of(requireLeader()), cluster::kill, NodeState.DOWN);
    }

    /** SIGKILLs a random running node. */
    public FaultRecord killRandom() {
        return onEachSeen("kill-random", "kill", List.of(pick(running())), cluster::kill, NodeState.DOWN);
    }

    /** SIGKILLs a random majority of the nodes (those already down count towards it). */
    public FaultRecord killMajority() {
        List<String> chosen = new ArrayList<>(shuffled().subList(0, cluster.quorumSize()));
        Collections.sort(chosen);
        return onEachSeen("kill-majority", "kill", chosen, cluster::kill, NodeState.DOWN);
    }

    /**
     * SIGKILLs a random running node and drops every write it had not fsynced (its data must be on a file system that
     * holds writes until fsync: the local backend's lazy file system).
     *
     * @throws IllegalStateException when the system cannot drop unsynced writes
     */
    public FaultRecord killLoseUnfsynced() {
        return onEachSeen("kill-lose-unfsynced", "kill, dropping unfsynced writes,", List.of(pick(running())),
                this::killLosingUnsynced, NodeState.DOWN);
    }

    /**
     * SIGKILLs every node at once and drops every write none of them had fsynced: a power failure of the whole
     * ensemble. What a server acknowledged without fsyncing it (ZooKeeper with {@code forceSync=no}) is gone
     * everywhere.
     *
     * @throws IllegalStateException when the system cannot drop unsynced writes
     */
    public FaultRecord killAllLoseUnfsynced() {
        return onEachSeen("kill-all-lose-unfsynced", "kill, dropping unfsynced writes,", cluster.nodes(),
                this::killLosingUnsynced, NodeState.DOWN);
    }

    private void killLosingUnsynced(String node) {
        try {
            cluster.killLosingUnsyncedWrites(node);
        } catch (UnsupportedOperationException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /**
     * SIGKILLs a random running node in the middle of writing back: of each of its files' bytes written and not
     * fsynced, a seeded prefix reaches its disk and the rest is lost ({@link NodeControl#killTearingUnsyncedWrites}).
     *
     * @throws IllegalStateException when the system cannot tear unsynced writes
     */
    public FaultRecord killTearUnfsynced() {
        return tearing("kill-tear-unfsynced", List.of(pick(running())));
    }

    /**
     * A power failure of the whole ensemble in the middle of writing back: every node SIGKILLed, each file keeping a
     * seeded prefix of what it had not fsynced.
     *
     * @throws IllegalStateException when the system cannot tear unsynced writes
     */
    public FaultRecord killAllTearUnfsynced() {
        return tearing("kill-all-tear-unfsynced", cluster.nodes());
    }

    private FaultRecord tearing(String fault, List<String> nodes) {
        List<String> steps = new ArrayList<>();
        List<Felt> felt = new ArrayList<>();
        for (String node : nodes) {
            long seed = choices.upTo("tear-seed", Integer.MAX_VALUE);
            String torn;
            try {
                torn = cluster.killTearingUnsyncedWrites(node, seed);
            } catch (UnsupportedOperationException e) {
                throw new IllegalStateException(e.getMessage(), e);
            }
            steps.add(node + " (tear seed " + seed + ": " + torn + ")");
            seen(node, NodeState.DOWN).ifPresent(felt::add);
        }
        return new FaultRecord(fault, "kill, tearing unfsynced writes, " + String.join(", ", steps), nodes,
                List.of(), new java.util.TreeMap<>()).withFelt(felt);
    }

    /**
     * SIGKILLs every running node, one right after the other in a seeded order: the whole ensemble loses power, so
     * whatever no node had written out yet is gone (a node that acknowledged a write it had not written loses it).
     */
    public FaultRecord killAll() {
        List<String> order = shuffled().stream().filter(n -> cluster.state(n) != NodeState.DOWN).toList();
        return onEachSeen("kill-all", "kill", order, cluster::kill, NodeState.DOWN);
    }

    /** SIGSTOPs the leader. */
    public FaultRecord pauseLeader() {
        return onEachSeen("pause-leader", "pause", List.of(requireLeader()), cluster::pause, NodeState.PAUSED);
    }

    /** SIGSTOPs a random running node. */
    public FaultRecord pauseRandom() {
        return onEachSeen("pause-random", "pause", List.of(pick(running())), cluster::pause, NodeState.PAUSED);
    }

    /** SIGCONTs every paused node. */
    public FaultRecord resumeAll() {
        List<String> paused = cluster.nodes().stream().filter(n -> cluster.state(n) == NodeState.PAUSED).toList();
        return onEachIndependently("resume", "resume", paused, cluster::resume);
    }

    /** Starts every node that is down, on its data. */
    public FaultRecord restartDown() {
        List<String> down = cluster.nodes().stream().filter(n -> cluster.state(n) == NodeState.DOWN).toList();
        return onEachIndependently("restart", "restart", down, cluster::start);
    }

    /**
     * A replaced disk: SIGKILLs a random running follower, empties its data directory but for its identity
     * ({@link NodeControl#replaceDisk}: its host re-imaged), and after a seeded delay of up to {@code maxDelay} starts
     * it on the empty directory, then waits up to {@code serveBound} until it serves again (it has synced the whole
     * tree from the leader). A follower, not the leader: a server that forgot what it acknowledged must not vote in
     * an election before it has synced (ZAB assumes a server keeps what it acknowledged; an emptied one could help
     * elect a server that misses a committed write), and the leader's kill would bring one about at once.
     *
     * @throws IllegalStateException when no follower runs or the system cannot empty a data directory
     */
    public FaultRecord replaceDisk(Duration maxDelay, Duration serveBound) {
        String leader = requireLeader();
        List<String> followers = running();
        followers.remove(leader);
        if (followers.isEmpty()) {
            throw new IllegalStateException("no running follower (leader " + leader + ")");
        }
        String node = pick(followers);
        try {
            cluster.replaceDisk(node);
        } catch (UnsupportedOperationException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
        List<Felt> felt = seenEach(List.of(node), NodeState.DOWN);
        long ms = delayMillis(maxDelay);
        sleep(ms);
        cluster.start(node);
        return new FaultRecord("replace-disk", "kill " + node + ", empty its data directory (its id kept), restart "
                + "it on the empty directory after " + ms + " ms" + serving(node, serveBound), List.of(node),
                List.of(), new java.util.TreeMap<>()).withFelt(felt);
    }

    /** Kills and starts {@code node} again on its data. */
    public FaultRecord restart(String node) {
        return onEach("restart", "restart", List.of(node), cluster::restart);
    }

    // ---- disks: a node's data directory fails rather than forgets, until it is repaired ----

    /** A random running node's writes fail with EIO until {@link #repairDisks}. */
    public FaultRecord diskWriteErrors() {
        return failDisk("disk-eio-write", node -> new DiskFault.WriteErrors());
    }

    /** A random running node's fsyncs fail with EIO until {@link #repairDisks}. */
    public FaultRecord diskFsyncErrors() {
        return failDisk("disk-eio-fsync", node -> new DiskFault.FsyncErrors());
    }

    /** A random running node's disk is full until {@link #repairDisks}. */
    public FaultRecord diskFull() {
        return failDisk("disk-full", node -> new DiskFault.Full());
    }

    /**
     * A random running node's fsyncs each wait an extra delay in {@code [least, most]}, drawn in turn from a seeded
     * sequence, until {@link #repairDisks}.
     */
    public FaultRecord slowFsyncs(Duration least, Duration most) {
        return failDisk("disk-slow-fsync", node -> new DiskFault.SlowFsync(least, most,
                choices.upTo("fsync-delay-seed", Integer.MAX_VALUE)));
    }

    private FaultRecord failDisk(String fault, java.util.function.Function<String, DiskFault> how) {
        String node = pick(running());
        DiskFault f = how.apply(node);
        try {
            cluster.injectDiskFault(node, f);
        } catch (UnsupportedOperationException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
        return new FaultRecord(fault, node + "'s disk: " + f.describe(), List.of(node), List.of(),
                new java.util.TreeMap<>());
    }

    /**
     * Repairs every failing disk, then starts every node that is down on its data: a server that exited on its
     * disk's errors is started again, as its supervisor would once the disk works. A server that is still running
     * is left as it is, whatever state the errors left it in.
     */
    public FaultRecord repairDisks() {
        FaultRecord repaired = repairFailingDisks();
        FaultRecord restarted = restartDown();
        List<String> nodes = new ArrayList<>(repaired.nodes());
        nodes.addAll(restarted.nodes());
        return new FaultRecord("repair-disks", repaired.description() + "; " + restarted.description(),
                nodes.stream().distinct().sorted().toList(), List.of(), new java.util.TreeMap<>())
                .withFelt(repaired.felt());
    }

    /** Ends the faults of every failing disk (each tried, whatever the others do); restarts nothing. */
    FaultRecord repairFailingDisks() {
        java.util.Map<String, List<DiskFault>> faults = cluster.diskFaults();
        List<String> failing = faults.keySet().stream().sorted().toList();
        // what each disk did in its window, counted before the repair ends it
        List<Felt> felt = new ArrayList<>();
        for (String node : failing) {
            cluster.diskCountsSinceFault(node).ifPresent(c -> felt.add(diskFelt(node, faults.get(node), c)));
        }
        return onEachIndependently("repair-disks", "repair the disk of", failing, cluster::repairDisk)
                .withFelt(felt);
    }

    /**
     * Whether a failing disk was felt: the file system returned its errors, refused for want of space or slowed
     * fsyncs at least once in the window (a server that wrote and fsynced nothing meanwhile never met the fault).
     */
    static Felt diskFelt(String node, List<DiskFault> faults, java.util.Map<String, Long> counts) {
        long writes = counts.getOrDefault("writes", 0L);
        long fsyncs = counts.getOrDefault("fsyncs", 0L);
        List<String> met = new ArrayList<>();
        List<String> missed = new ArrayList<>();
        for (DiskFault f : faults) {
            String[] counterAndWords = f instanceof DiskFault.WriteErrors
                    ? new String[] {"failed_writes", "writes failed", "failed no write"}
                    : f instanceof DiskFault.FsyncErrors
                    ? new String[] {"failed_fsyncs", "fsyncs failed", "failed no fsync"}
                    : f instanceof DiskFault.Full
                    ? new String[] {"full_writes", "writes refused for want of space", "refused no write"}
                    : new String[] {"slowed_fsyncs", "fsyncs slowed", "slowed no fsync"};
            long n = counts.getOrDefault(counterAndWords[0], 0L);
            if (n > 0) {
                met.add(n + " " + counterAndWords[1]);
            } else {
                missed.add(counterAndWords[2]);
            }
        }
        String window = "(" + writes + " write" + (writes == 1 ? "" : "s") + ", " + fsyncs + " fsync"
                + (fsyncs == 1 ? "" : "s") + " in its window)";
        return met.isEmpty() ? Felt.of(node, false, String.join(", ", missed) + " " + window)
                : Felt.of(node, true, String.join(", ", met) + " " + window);
    }

    // ---- clocks (wall clock only: the monotonic clock runs on, see NodeControl#setClockOffset) ----

    /**
     * Skews every node's wall clock by its own seeded offset in {@code [-max, +max]} (millisecond steps), as on
     * machines whose clocks were never synchronized; {@link #resetClocks} ends it.
     */
    public FaultRecord skewClocks(Duration max) {
        java.util.Map<String, Duration> offsets = new java.util.LinkedHashMap<>();
        for (String node : cluster.nodes()) {
            // [0, 2max] shifted down by max: a choice of the schedule is a non-negative number
            offsets.put(node, Duration.ofMillis(choices.upTo("clock-offset-ms", 2 * max.toMillis()) - max.toMillis()));
        }
        return setClocks("clock-skew", "skew the clock of", offsets);
    }

    /**
     * Jumps one random running node's wall clock forward or back (a seeded sign) by a seeded amount in
     * {@code [least, most]}, as a {@code date -s} or an NTP step does; {@link #resetClocks} ends it.
     */
    public FaultRecord bumpClock(Duration least, Duration most) {
        String node = pick(running());
        return setClocks("clock-bump", "bump the clock of", java.util.Map.of(node, signed(least, most)));
    }

    /**
     * Strobes one random running node's wall clock: flips it between a seeded offset (sign and size in
     * {@code [least, most]}) and the true time, {@code flips} times, each state held a seeded time of up to
     * {@code hold} on top of the time the backend takes to apply a change; it ends on the offset, which
     * {@link #resetClocks} undoes.
     */
    public FaultRecord strobeClock(Duration least, Duration most, int flips, Duration hold) {
        String node = pick(running());
        Duration offset = signed(least, most);
        long start = System.nanoTime();
        for (int i = 0; i < flips; i++) {
            cluster.setClockOffset(node, i % 2 == 0 ? offset : Duration.ZERO);
            sleep(delayMillis(hold));
        }
        cluster.setClockOffset(node, offset);
        List<Felt> felt = clocksFelt(java.util.Map.of(node, offset));
        long ms = (System.nanoTime() - start) / 1_000_000;
        return new FaultRecord("clock-strobe", "strobe the clock of " + node + " between " + offsetText(offset)
                + " and the true time, " + flips + " flips over " + ms + " ms; it stays at " + offsetText(offset),
                List.of(node), List.of(), new java.util.TreeMap<>()).withFelt(felt);
    }

    /** Sets every moved wall clock back to the true time, all at once. */
    public FaultRecord resetClocks() {
        return resetClocks("clock-reset", "reset the clock of", cluster.clockOffsets(), cluster::setClockOffsets);
    }

    private FaultRecord setClocks(String fault, String verb, java.util.Map<String, Duration> offsets) {
        return moveClocks(fault, verb, offsets, cluster::setClockOffsets).withFelt(clocksFelt(offsets));
    }

    /** How far a clock read back may be from the offset asked and still show it: the log's ms, a scheduler's hiccup. */
    static final long CLOCK_SLACK_MILLIS = 250;

    /** Each moved server's clock read back from the server, against the offset asked (none read: not measured). */
    private List<Felt> clocksFelt(java.util.Map<String, Duration> offsets) {
        List<Felt> felt = new ArrayList<>();
        offsets.forEach((node, asked) -> cluster.readClock(node).ifPresent(r -> felt.add(clockFelt(node, asked, r))));
        return felt;
    }

    /** Whether a server's clock read back shows the offset asked (within {@link #CLOCK_SLACK_MILLIS}). */
    static Felt clockFelt(String node, Duration asked, ClockReading r) {
        long mid = (r.leastOffsetMillis() + r.mostOffsetMillis()) / 2;
        String seen = "server clock read back at " + offsetText(Duration.ofMillis(mid)) + " (asked "
                + offsetText(asked) + "; " + r.how() + ")";
        return Felt.of(node, r.shows(asked.toMillis(), CLOCK_SLACK_MILLIS), seen);
    }

    /**
     * Sets every clock of {@code offsets} in one call (one wait on a backend that waits for a change to be seen: the
     * fault's hold is not spent setting clocks one by one) and records each offset.
     */
    private static FaultRecord moveClocks(String fault, String verb, java.util.Map<String, Duration> offsets,
                                          Consumer<java.util.Map<String, Duration>> set) {
        try {
            set.accept(offsets);
        } catch (UnsupportedOperationException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
        List<String> steps = new ArrayList<>();
        offsets.forEach((who, offset) -> steps.add(who + " " + offsetText(offset)));
        return new FaultRecord(fault, verb + " " + String.join(", ", steps), offsets.keySet().stream().sorted()
                .toList(), List.of(), new java.util.TreeMap<>());
    }

    /** Sets each clock of {@code moved} back to the true time in one call (none moved: nothing asked). */
    private static FaultRecord resetClocks(String fault, String verb, java.util.Map<String, Duration> moved,
                                           Consumer<java.util.Map<String, Duration>> set) {
        List<String> names = moved.keySet().stream().sorted().toList();
        java.util.Map<String, Duration> zero = new java.util.LinkedHashMap<>();
        names.forEach(n -> zero.put(n, Duration.ZERO));
        if (!zero.isEmpty()) {
            moveClocks(fault, verb, zero, set);
        }
        return FaultRecord.process(fault, verb, names);
    }

    /** A seeded duration in {@code [least, most]} (ms steps), forward or back with equal odds. */
    private Duration signed(Duration least, Duration most) {
        long ms = least.toMillis() + choices.upTo("clock-offset-ms", most.toMillis() - least.toMillis());
        return Duration.ofMillis(choices.coin("clock-forward") ? ms : -ms);
    }

    /** {@code +12.345 s}, {@code -0.800 s}. */
    static String offsetText(Duration offset) {
        long ms = offset.toMillis();
        return String.format(Locale.ROOT, "%s%d.%03d s", ms < 0 ? "-" : "+", Math.abs(ms) / 1000,
                Math.abs(ms) % 1000);
    }

    // ---- client processes ----

    /** SIGSTOPs the client process that holds leadership now. */
    public FaultRecord pauseLeaderClient() {
        return onEach("pause-leader-client", "pause client", List.of(requireClientLeader()), clients::pause);
    }

    /** SIGSTOPs a random running client process. */
    public FaultRecord pauseRandomClient() {
        return onEach("pause-random-client", "pause client", List.of(choices.one("client", runningClients(),
                c -> c)), clients::pause);
    }

    /** SIGKILLs the client process that holds leadership now (a new client process takes its place). */
    public FaultRecord killLeaderClient() {
        return onEach("kill-leader-client", "kill client", List.of(requireClientLeader()), clients::kill);
    }

    /**
     * Skews every running client process's wall clock by its own seeded offset in {@code [-max, +max]} (millisecond
     * steps); {@link #resetClientClocks} ends it.
     */
    public FaultRecord skewClientClocks(Duration max) {
        java.util.Map<String, Duration> offsets = new java.util.LinkedHashMap<>();
        for (String client : runningClients()) {
            offsets.put(client, Duration.ofMillis(choices.upTo("clock-offset-ms", 2 * max.toMillis())
                    - max.toMillis()));
        }
        return setClientClocks("client-clock-skew", "skew the clock of client", offsets);
    }

    /**
     * Jumps one random running client process's wall clock forward or back (a seeded sign) by a seeded amount in
     * {@code [least, most]}; {@link #resetClientClocks} ends it.
     */
    public FaultRecord bumpClientClock(Duration least, Duration most) {
        String client = choices.one("client", runningClients(), c -> c);
        return setClientClocks("client-clock-bump", "bump the clock of client",
                java.util.Map.of(client, signed(least, most)));
    }

    /** Sets every moved client clock back to the true time, all at once. */
    public FaultRecord resetClientClocks() {
        return resetClocks("client-clock-reset", "reset the clock of client", clients.clockOffsets(),
                clients::setClockOffsets);
    }

    private FaultRecord setClientClocks(String fault, String verb, java.util.Map<String, Duration> offsets) {
        return moveClocks(fault, verb, offsets, clients::setClockOffsets);
    }

    /** Undoes nothing: the harness replaced a killed client process with a new one the moment it died. */
    public FaultRecord clientsReplaced() {
        return new FaultRecord("clients-replaced", "nothing to undo: a new client process took each killed one's "
                + "place when it died", List.of(), List.of(), new java.util.TreeMap<>());
    }

    /** SIGCONTs every paused client process. */
    public FaultRecord resumeClients() {
        List<String> paused = clients.clients().stream().filter(c -> clients.state(c) == NodeState.PAUSED).toList();
        return onEachIndependently("resume-clients", "resume client", paused, clients::resume);
    }

    // ---- crash-restart cycles (the process is killed and started again on its data within the fault) ----

    /** SIGKILLs a random running node and starts it again on its data after a seeded delay of up to {@code maxDelay}. */
    public FaultRecord restartRandom(Duration maxDelay) {
        return crashRestart("restart-random", List.of(pick(running())), maxDelay);
    }

    /** SIGKILLs the leader and starts it again on its data after a seeded delay of up to {@code maxDelay}. */
    public FaultRecord restartLeader(Duration maxDelay) {
        return crashRestart("restart-leader", List.of(requireLeader()), maxDelay);
    }

    /**
     * The whole ensemble crashes: every node is SIGKILLed (in a seeded order), then after a seeded delay of up to
     * {@code maxDelay} all are started again on their data (in another seeded order).
     */
    public FaultRecord restartAll(Duration maxDelay) {
        return crashRestart("restart-all", shuffled(), maxDelay);
    }

    /**
     * A subset of the nodes crashes together: a seeded number (at least two) of the running nodes, in a seeded
     * order, are SIGKILLed one right after the other; after a seeded delay of up to {@code maxDelay} all of them but
     * one are started again on their data (in a seeded order, the last of which stays down until
     * {@link #restartDown}).
     */
    public FaultRecord crashSubsetLeaveOne(Duration maxDelay) {
        List<String> running = running();
        if (running.size() < 2) {
            throw new IllegalStateException("a subset crash needs at least two running nodes; running " + running);
        }
        List<String> order = choices.order(cluster, running);
        List<String> subset = order.subList(0, 2 + choices.below("count", running.size() - 1));
        long ms = delayMillis(maxDelay);
        subset.forEach(cluster::kill);
        List<Felt> felt = seenEach(subset, NodeState.DOWN);
        sleep(ms);
        List<String> restart = choices.order(cluster, subset);
        String staysDown = restart.get(restart.size() - 1);
        restart.subList(0, restart.size() - 1).forEach(cluster::start);
        List<String> sorted = new ArrayList<>(subset);
        Collections.sort(sorted);
        return new FaultRecord("crash-subset", "kill " + String.join(", ", subset) + "; restart "
                + String.join(", ", restart.subList(0, restart.size() - 1)) + " on their data after " + ms
                + " ms; " + staysDown + " stays down until the heal", sorted, List.of(), new java.util.TreeMap<>())
                .withFelt(felt);
    }

    /**
     * A node crashes again while it rejoins: a random running node is SIGKILLed, started again on its data after a
     * seeded delay of up to {@code maxDelay}, and SIGKILLed again a seeded time in {@code [least, most]} after that
     * start, while it loads its data, elects and syncs with the leader; it stays down until {@link #restartDown}.
     */
    public FaultRecord crashRestartCrash(Duration maxDelay, Duration least, Duration most) {
        String node = pick(running());
        long down = delayMillis(maxDelay);
        long rejoining = least.toMillis() + choices.upTo("rejoin-ms", most.toMillis() - least.toMillis());
        cluster.kill(node);
        List<Felt> felt = seenEach(List.of(node), NodeState.DOWN);
        sleep(down);
        cluster.start(node);
        sleep(rejoining);
        cluster.kill(node);
        return new FaultRecord("crash-restart-crash", "kill " + node + "; restart it on its data after " + down
                + " ms; kill it again " + rejoining + " ms after it started; it stays down until the heal",
                List.of(node), List.of(), new java.util.TreeMap<>()).withFelt(felt);
    }

    /**
     * Each node in turn (seeded order): SIGKILL, start again on its data, wait until it serves (up to
     * {@code serveBound}), then the next. A node that does not serve in time is recorded as such, and the roll goes
     * on.
     */
    public FaultRecord rollingRestart(Duration serveBound) {
        List<String> order = shuffled();
        List<String> steps = new ArrayList<>();
        List<Felt> felt = new ArrayList<>();
        for (String node : order) {
            cluster.kill(node);
            seen(node, NodeState.DOWN).ifPresent(felt::add);
            cluster.start(node);
            steps.add("restart " + node + serving(node, serveBound));
        }
        return new FaultRecord("rolling-restart", String.join("; ", steps), order, List.of(), new java.util.TreeMap<>())
                .withFelt(felt);
    }

    /**
     * Lagging followers: SIGKILLs a seeded number of followers (1 on 3 nodes, 1 or 2 on 5: never the quorum), so that
     * the clients' writes go on without them; {@link #catchUp} brings them back.
     */
    public FaultRecord stopFollowers() {
        String leader = requireLeader();
        List<String> running = running();
        running.remove(leader);
        List<String> followers = choices.order(cluster, running);
        int most = Math.min(followers.size(), cluster.nodes().size() - cluster.quorumSize());
        if (most < 1) {
            throw new IllegalStateException("no follower can be stopped without losing the quorum (nodes "
                    + cluster.nodes() + ", running " + running() + ")");
        }
        List<String> chosen = new ArrayList<>(followers.subList(0, 1 + choices.below("count", most)));
        Collections.sort(chosen);
        return onEachSeen("lagging-follower", "kill (to lag behind)", chosen, cluster::kill, NodeState.DOWN);
    }

    /**
     * Brings every node that is down back, one at a time (seeded order), each catching up with the leader before
     * the next starts (waiting up to {@code serveBound}). When more than one node lags, a seeded coin decides
     * whether the leader is crash-restarted after the first is back, so that the next ones catch up from a new
     * leader, which may be the node that has just caught up itself.
     */
    public FaultRecord catchUp(Duration serveBound, Duration maxDelay) {
        List<String> down = choices.order(cluster, cluster.nodes().stream()
                .filter(n -> cluster.state(n) == NodeState.DOWN).toList());
        boolean newLeader = down.size() > 1 && choices.coin("new-leader");
        List<String> steps = new ArrayList<>();
        List<String> acted = new ArrayList<>(down);
        for (int i = 0; i < down.size(); i++) {
            String node = down.get(i);
            cluster.start(node);
            steps.add("restart " + node + serving(node, serveBound));
            if (i == 0 && newLeader) {
                Optional<String> leader = leader();
                if (leader.isPresent()) {
                    String l = leader.get();
                    long ms = delayMillis(maxDelay);
                    cluster.kill(l);
                    sleep(ms);
                    cluster.start(l);
                    steps.add("crash-restart leader " + l + " after " + ms + " ms" + serving(l, serveBound));
                    acted.add(l);
                } else {
                    steps.add("no leader to crash-restart");
                }
            }
        }
        return new FaultRecord("catch-up", steps.isEmpty() ? "nothing was down" : String.join("; ", steps),
                acted.stream().distinct().toList(), List.of(), new java.util.TreeMap<>());
    }

    /** Kills every one of {@code nodes} (in order), waits a seeded delay, starts them again (in a seeded order). */
    private FaultRecord crashRestart(String fault, List<String> nodes, Duration maxDelay) {
        long ms = delayMillis(maxDelay);
        nodes.forEach(cluster::kill);
        List<Felt> felt = seenEach(nodes, NodeState.DOWN);
        sleep(ms);
        List<String> restart = choices.order(cluster, nodes);
        restart.forEach(cluster::start);
        List<String> sorted = new ArrayList<>(nodes);
        Collections.sort(sorted);
        return new FaultRecord(fault, "kill " + String.join(", ", nodes) + "; restart " + String.join(", ", restart)
                + " on their data after " + ms + " ms", sorted, List.of(), new java.util.TreeMap<>()).withFelt(felt);
    }

    /** " (serves)" once the node serves, or why it did not within the bound. */
    private String serving(String node, Duration bound) {
        try {
            cluster.awaitServing(node, bound);
            return " (serves)";
        } catch (IllegalStateException e) {
            return " (" + e.getMessage() + ")";
        }
    }

    /** A seeded delay of 0..max ms. */
    long delayMillis(Duration max) {
        return max.isZero() || max.isNegative() ? 0 : choices.upTo("delay-ms", max.toMillis());
    }

    /** Sleeps; an interrupt (the run is closing) cuts it short and is kept for the caller to see. */
    static void sleep(long ms) {
        if (ms <= 0) {
            return;
        }
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ---- helpers ----

    /** Does {@code action} to each of {@code nodes}, in order, and records it as process fault {@code fault}. */
    private static String message(RuntimeException e) {
        return e.getMessage() == null ? e.toString() : e.getMessage();
    }

    /** As {@link #onEach}, then each node's process as the system shows it, against {@code expected}. */
    private FaultRecord onEachSeen(String fault, String verb, List<String> nodes, Consumer<String> action,
                                   NodeState expected) {
        return onEach(fault, verb, nodes, action).withFelt(seenEach(nodes, expected));
    }

    private List<Felt> seenEach(List<String> nodes, NodeState expected) {
        List<Felt> felt = new ArrayList<>();
        nodes.forEach(n -> seen(n, expected).ifPresent(felt::add));
        return felt;
    }

    /** The node's process as the system shows it now: felt when it is {@code expected}; empty when not measured. */
    private Optional<Felt> seen(String node, NodeState expected) {
        return cluster.processSeen(node).map(s -> Felt.of(node, s == expected, "process seen " + switch (s) {
            case DOWN -> "gone";
            case PAUSED -> "stopped";
            case RUNNING -> "running";
        }));
    }

    private static FaultRecord onEach(String fault, String verb, List<String> nodes, Consumer<String> action) {
        nodes.forEach(action);
        return FaultRecord.process(fault, verb, nodes);
    }

    /**
     * As {@link #onEach}, but one node's failure does not spare the others: an undoing action (resume, restart) is
     * tried on every node, a node that fails once is tried again a second later (an engine or host busy for a
     * moment), and what still failed is thrown afterwards, naming each node.
     */
    private static FaultRecord onEachIndependently(String fault, String verb, List<String> nodes,
                                                   Consumer<String> action) {
        List<String> failed = new ArrayList<>();
        for (String node : nodes) {
            try {
                action.accept(node);
            } catch (RuntimeException first) {
                try {
                    Thread.sleep(RETRY_AFTER.toMillis());
                    action.accept(node);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    failed.add(verb + " " + node + ": interrupted after " + message(first));
                } catch (RuntimeException e) {
                    failed.add(verb + " " + node + ": " + message(e));
                }
            }
        }
        if (!failed.isEmpty()) {
            throw new IllegalStateException(String.join("; ", failed));
        }
        return FaultRecord.process(fault, verb, nodes);
    }

    /** Who leads now (a choice: a replay by role asks again, by name names the same node). */
    Optional<String> leader() {
        return choices.leader(Aim.Choice.LEADER, cluster, cluster::leader);
    }

    private String requireLeader() {
        return leader().orElseThrow(() -> new IllegalStateException(
                "no node leads now (nodes " + cluster.nodes() + "): cannot aim a fault at the leader"));
    }

    private String requireClientLeader() {
        return choices.leader("client-leader", cluster, clients::leader).orElseThrow(() -> new IllegalStateException(
                "no client process leads now (clients " + clients.clients() + "): cannot aim a fault at the leader"));
    }

    private List<String> runningClients() {
        List<String> r = new ArrayList<>(clients.clients().stream()
                .filter(c -> clients.state(c) == NodeState.RUNNING).toList());
        if (r.isEmpty()) {
            throw new IllegalStateException("no client process is running");
        }
        return r;
    }

    List<String> running() {
        List<String> r = new ArrayList<>(cluster.nodes().stream()
                .filter(n -> cluster.state(n) == NodeState.RUNNING).toList());
        if (r.isEmpty()) {
            throw new IllegalStateException("no node is running");
        }
        return r;
    }

    /** One of {@code nodes}, drawn (or as the action's aim says). */
    String pick(List<String> nodes) {
        return choices.node(cluster, nodes);
    }

    /** Every node, in a drawn order (or the action's aim's). */
    private List<String> shuffled() {
        return choices.order(cluster, cluster.nodes());
    }

}
