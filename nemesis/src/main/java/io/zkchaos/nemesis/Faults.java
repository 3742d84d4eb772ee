package io.zkchaos.nemesis;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import io.zkchaos.nemesis.faults.ClientFaults;
import io.zkchaos.nemesis.faults.ClockFaults;
import io.zkchaos.nemesis.faults.CrashFaults;
import io.zkchaos.nemesis.faults.DiskFaults;
import io.zkchaos.nemesis.faults.NetworkFaults;
import io.zkchaos.nemesis.faults.PauseFaults;
import io.zkchaos.nemesis.faults.SyncFaults;

/**
 * The built-in faults by the names the CLI takes, in a stable order. Each is also a nemesis of its own name, and
 * {@code mixed} chooses among all of them ({@link Nemeses}). A new fault is one {@link #add} line here, built from
 * the actions of its family ({@code io.zkchaos.nemesis.faults}: {@link NetworkFaults}, {@link CrashFaults},
 * {@link PauseFaults}, {@link ClockFaults}, {@link DiskFaults}, {@link ClientFaults}, and {@link SyncFaults} for
 * moments of the protocol), which name what they record for the fault being run: its name is written here only.
 */
public final class Faults {

    /** Latency of the {@code slow-network} fault, each way, with its jitter. */
    public static final Duration SLOW_LATENCY = Duration.ofMillis(50);
    public static final Duration SLOW_JITTER = Duration.ofMillis(25);

    /**
     * A client pause lasts at least this many session timeouts: the servers expire the session one timeout after
     * its last heartbeat (plus a tick), and another candidate must have time to take over before the frozen one
     * wakes.
     */
    public static final double CLIENT_PAUSE_SESSION_TIMEOUTS = 2.0;
    /** The crash-restart faults start a killed node again after a seeded delay of up to this. */
    public static final Duration RESTART_DELAY_MAX = Duration.ofSeconds(1);
    /**
     * {@code crash-restart-crash} kills the restarted node again a seeded time in this range after starting it: within
     * its first seconds, while it loads its data, elects and syncs with the leader.
     */
    public static final Duration REJOIN_KILL_LEAST = Duration.ofMillis(300);
    public static final Duration REJOIN_KILL_MOST = Duration.ofSeconds(3);
    /** How long a rolling restart or a catching-up follower may take to serve again before the fault goes on. */
    public static final Duration SERVE_BOUND = Duration.ofSeconds(30);
    /** A follower restarted to provoke a sync stays down for a seeded lag of up to this (clients write meanwhile). */
    public static final Duration SYNC_LAG_MAX = Duration.ofSeconds(5);
    /** {@code crash-during-sync} kills at once or up to this long after the frame, and restarts up to 1 s later. */
    public static final Duration TRIGGER_DELAY_MAX = Duration.ofMillis(50);
    /** {@code stall-during-snapshot} stalls after a seeded number of snapshot bytes up to this. */
    public static final long SNAPSHOT_BYTES_MAX = 64 * 1024;

    /** {@code clock-skew} gives every server its own seeded wall-clock offset within ± this. */
    public static final Duration CLOCK_SKEW_MAX = Duration.ofSeconds(60);
    /** {@code clock-bump} and {@code clock-strobe} move one server's wall clock by a seeded amount in this range. */
    public static final Duration CLOCK_JUMP_LEAST = Duration.ofSeconds(1);
    public static final Duration CLOCK_JUMP_MOST = Duration.ofMinutes(10);
    /** {@code clock-strobe} flips the clock this many times, each state held up to {@link #STROBE_HOLD} more. */
    public static final int STROBE_FLIPS = 4;
    public static final Duration STROBE_HOLD = Duration.ofMillis(500);

    /** {@code disk-slow-fsync}: each fsync waits a seeded extra delay in this range. */
    public static final Duration SLOW_FSYNC_LEAST = Duration.ofMillis(100);
    public static final Duration SLOW_FSYNC_MOST = Duration.ofSeconds(2);

    private static final Map<String, Fault> ALL = new LinkedHashMap<>();

    static {
        add("kill-leader", "SIGKILL the leader; restart it on its data at the heal", Fault.Family.CRASH,
                crash(CrashFaults::killLeader), crash(CrashFaults::restartDown));
        add("kill-random", "SIGKILL a random node; restart it at the heal", Fault.Family.CRASH,
                crash(CrashFaults::killRandom), crash(CrashFaults::restartDown));
        add("kill-majority", "SIGKILL a majority of the nodes; restart them at the heal", Fault.Family.CRASH,
                crash(CrashFaults::killMajority), crash(CrashFaults::restartDown), Fault.Trait.NO_SERVICE);
        add("kill-all", "SIGKILL every node (the whole ensemble loses power); restart them on their data at the heal",
                Fault.Family.CRASH, crash(CrashFaults::killAll), crash(CrashFaults::restartDown), Fault.Trait.NO_SERVICE);
        add("pause-leader", "SIGSTOP the leader; SIGCONT it at the heal", Fault.Family.PAUSE,
                pause(PauseFaults::pauseLeader), pause(PauseFaults::resumeAll));
        add("pause-random", "SIGSTOP a random node; SIGCONT it at the heal", Fault.Family.PAUSE,
                pause(PauseFaults::pauseRandom), pause(PauseFaults::resumeAll));
        add("isolate-leader", "cut the leader off from every other node (clients still reach it)", Fault.Family.NETWORK,
                network(NetworkFaults::isolateLeader), network(NetworkFaults::heal));
        add("isolate-follower", "cut the lowest-named follower off from every other node, links black-holed so "
                        + "it learns only by its own timeout; its clients still reach it (with --pin-reads follower: "
                        + "stale reads)", Fault.Family.NETWORK,
                network(NetworkFaults::isolateFollower), network(NetworkFaults::heal));
        add("halves", "partition the nodes into a minority and a majority (by name)", Fault.Family.NETWORK,
                network(NetworkFaults::halves), network(NetworkFaults::heal));
        add("random-halves", "partition the nodes into a random minority and majority", Fault.Family.NETWORK,
                network(NetworkFaults::randomHalves), network(NetworkFaults::heal));
        add("bridge", "two halves that cannot talk, joined by one node that hears both", Fault.Family.NETWORK,
                network(NetworkFaults::bridge), network(NetworkFaults::heal));
        add("majorities-ring", "every node sees a majority, no two the same majority", Fault.Family.NETWORK,
                network(NetworkFaults::majoritiesRing), network(NetworkFaults::heal), Fault.Trait.NO_SERVICE);
        add("client-partition", "cut every client link (clients reach no server) for the fault time: sessions "
                        + "expire when that exceeds the session timeout", Fault.Family.NETWORK,
                network(NetworkFaults::cutAllClients), network(NetworkFaults::heal), 1.5, Fault.Trait.NO_SERVICE);
        add("slow-network", "latency " + SLOW_LATENCY.toMillis() + " ms ± " + SLOW_JITTER.toMillis()
                        + " ms on every link, both ways", Fault.Family.NETWORK,
                network(a -> a.slowNetwork(SLOW_LATENCY, SLOW_JITTER)), network(NetworkFaults::heal), Fault.Trait.DELAYS_LINKS);
        // clocks: the servers' wall clocks moved (their monotonic clocks run on, as on a machine whose time is set)
        add("clock-skew", "skew every server's wall clock by its own seeded offset within ±"
                        + CLOCK_SKEW_MAX.toSeconds() + " s; reset them at the heal", Fault.Family.CLOCK,
                clock(a -> a.skewClocks(CLOCK_SKEW_MAX)), clock(ClockFaults::resetClocks), Fault.Trait.MOVES_CLOCKS);
        add("clock-bump", "jump a random server's wall clock forward or back by a seeded "
                        + CLOCK_JUMP_LEAST.toSeconds() + " s to " + CLOCK_JUMP_MOST.toMinutes() + " min; reset it at "
                        + "the heal", Fault.Family.CLOCK,
                clock(a -> a.bumpClock(CLOCK_JUMP_LEAST, CLOCK_JUMP_MOST)), clock(ClockFaults::resetClocks),
                Fault.Trait.MOVES_CLOCKS);
        add("clock-strobe", "flip a random server's wall clock " + STROBE_FLIPS + " times between a seeded offset ("
                        + CLOCK_JUMP_LEAST.toSeconds() + " s to " + CLOCK_JUMP_MOST.toMinutes() + " min, either way) "
                        + "and the true time; reset it at the heal", Fault.Family.CLOCK,
                clock(a -> a.strobeClock(CLOCK_JUMP_LEAST, CLOCK_JUMP_MOST, STROBE_FLIPS, STROBE_HOLD)),
                clock(ClockFaults::resetClocks), Fault.Trait.MOVES_CLOCKS);
        // Client processes (clients in JVMs of their own): a frozen leader outlives its session without noticing.
        addClient("pause-leader-client", "SIGSTOP the client process that holds leadership for at least twice the "
                        + "session timeout (its session expires, another takes over); SIGCONT it at the heal",
                client(ClientFaults::pauseLeaderClient), client(ClientFaults::resumeClients), CLIENT_PAUSE_SESSION_TIMEOUTS,
                Fault.Trait.ON_LEADING_CLIENT);
        addClient("pause-random-client", "SIGSTOP a random client process for at least twice the session timeout; "
                        + "SIGCONT it at the heal",
                client(ClientFaults::pauseRandomClient), client(ClientFaults::resumeClients), CLIENT_PAUSE_SESSION_TIMEOUTS);
        addClient("kill-leader-client", "SIGKILL the client process that holds leadership (a new client process "
                        + "takes its place at once)",
                client(ClientFaults::killLeaderClient), client(ClientFaults::clientsReplaced), 0,
                Fault.Trait.ON_LEADING_CLIENT);
        // the client processes' wall clocks (their monotonic clocks run on): what a client computes from its clock
        addClient("client-clock-skew", "skew every client process's wall clock by its own seeded offset within ±"
                        + CLOCK_SKEW_MAX.toSeconds() + " s; reset them at the heal",
                client(a -> a.skewClientClocks(CLOCK_SKEW_MAX)), client(ClientFaults::resetClientClocks), 0,
                Fault.Trait.MOVES_CLIENT_CLOCKS);
        addClient("client-clock-bump", "jump a random client process's wall clock forward or back by a seeded "
                        + CLOCK_JUMP_LEAST.toSeconds() + " s to " + CLOCK_JUMP_MOST.toMinutes() + " min; reset it at "
                        + "the heal",
                client(a -> a.bumpClientClock(CLOCK_JUMP_LEAST, CLOCK_JUMP_MOST)),
                client(ClientFaults::resetClientClocks), 0, Fault.Trait.MOVES_CLIENT_CLOCKS);
        // crash-restart cycles: processes killed and started again on their data within the fault
        add("restart-random", "SIGKILL a random node, restart it on its data after up to "
                        + RESTART_DELAY_MAX.toMillis() + " ms", Fault.Family.CRASH,
                crash(a -> a.restartRandom(RESTART_DELAY_MAX)), crash(CrashFaults::restartDown));
        add("restart-leader", "SIGKILL the leader, restart it on its data after up to "
                        + RESTART_DELAY_MAX.toMillis() + " ms", Fault.Family.CRASH,
                crash(a -> a.restartLeader(RESTART_DELAY_MAX)), crash(CrashFaults::restartDown));
        add("restart-all", "the whole ensemble crashes (SIGKILL) and restarts on its data after up to "
                        + RESTART_DELAY_MAX.toMillis() + " ms", Fault.Family.CRASH,
                crash(a -> a.restartAll(RESTART_DELAY_MAX)), crash(CrashFaults::restartDown), Fault.Trait.NO_SERVICE);
        add("rolling-restart", "each node in turn: SIGKILL, restart on its data, wait until it serves, next",
                Fault.Family.CRASH, crash(a -> a.rollingRestart(SERVE_BOUND)), crash(CrashFaults::restartDown));
        add("lagging-follower", "SIGKILL a follower (1 or 2 on 5 nodes) while clients write; at the heal bring "
                        + "them back one by one to catch up, sometimes from a new leader", Fault.Family.CRASH,
                crash(CrashFaults::stopFollowers), crash(a -> a.catchUp(SERVE_BOUND, RESTART_DELAY_MAX)));
        // a replaced disk: a node back with nothing but its identity, to sync the whole tree (SNAP on every release)
        add("replace-disk", "SIGKILL a random follower, empty its data directory but for its id (its host "
                        + "re-imaged), restart it after up to " + RESTART_DELAY_MAX.toMillis() + " ms and wait until "
                        + "it serves; start it at the heal if it is still down",
                Fault.Family.CRASH, crash(a -> a.replaceDisk(RESTART_DELAY_MAX, SERVE_BOUND)), crash(CrashFaults::restartDown),
                Fault.Trait.EMPTIES_DATA);
        // compound crashes: several nodes at once, or one node twice, with one left down until the heal
        add("crash-subset", "SIGKILL a seeded subset of at least two nodes together; restart all but one (seeded) "
                        + "on their data after up to " + RESTART_DELAY_MAX.toMillis() + " ms; the last one at the heal",
                Fault.Family.CRASH, crash(a -> a.crashSubsetLeaveOne(RESTART_DELAY_MAX)),
                crash(CrashFaults::restartDown));
        add("crash-restart-crash", "SIGKILL a random node, restart it on its data after up to "
                        + RESTART_DELAY_MAX.toMillis() + " ms, SIGKILL it again " + REJOIN_KILL_LEAST.toMillis()
                        + " ms to " + REJOIN_KILL_MOST.toSeconds() + " s after it started (while it rejoins and "
                        + "syncs); restart it at the heal",
                Fault.Family.CRASH, crash(a -> a.crashRestartCrash(RESTART_DELAY_MAX, REJOIN_KILL_LEAST,
                        REJOIN_KILL_MOST)), crash(CrashFaults::restartDown));
        // power failures: what the servers had not fsynced is lost (the lazy file system holds it until fsync)
        add("kill-lose-unfsynced", "SIGKILL a random node and drop the writes it had not fsynced (implies --lazyfs); "
                        + "restart it on what its disk kept at the heal", Fault.Family.CRASH,
                crash(CrashFaults::killLoseUnfsynced), crash(CrashFaults::restartDown), Fault.Trait.NEEDS_LAZYFS);
        add("kill-all-lose-unfsynced", "power failure: SIGKILL every node and drop every write not fsynced (implies "
                        + "--lazyfs); restart them on what their disks kept at the heal", Fault.Family.CRASH,
                crash(CrashFaults::killAllLoseUnfsynced), crash(CrashFaults::restartDown), Fault.Trait.NEEDS_LAZYFS,
                Fault.Trait.NO_SERVICE);
        add("kill-tear-unfsynced", "SIGKILL a random node in the middle of writing back: each of its files keeps a "
                        + "seeded prefix of what it had not fsynced, the rest is dropped (implies --lazyfs); restart it "
                        + "on what its disk kept at the heal", Fault.Family.CRASH,
                crash(CrashFaults::killTearUnfsynced), crash(CrashFaults::restartDown), Fault.Trait.NEEDS_LAZYFS);
        add("kill-all-tear-unfsynced", "power failure in the middle of writing back: SIGKILL every node, each file "
                        + "keeping a seeded prefix of what it had not fsynced (implies --lazyfs); restart them on "
                        + "what their disks kept at the heal", Fault.Family.CRASH,
                crash(CrashFaults::killAllTearUnfsynced), crash(CrashFaults::restartDown), Fault.Trait.NEEDS_LAZYFS,
                Fault.Trait.NO_SERVICE);
        // disks that fail rather than forget, for the fault's window (the lazy file system fails on command)
        add("disk-eio-write", "a random node's data directory fails every write with EIO (implies --lazyfs); "
                        + "repair it at the heal and restart the server if it exited", Fault.Family.DISK,
                disk(DiskFaults::diskWriteErrors), disk(DiskFaults::repairDisks), Fault.Trait.NEEDS_LAZYFS);
        add("disk-eio-fsync", "a random node's data directory fails every fsync with EIO, writes still succeed "
                        + "(implies --lazyfs); repair it at the heal and restart the server if it exited",
                Fault.Family.DISK,
                disk(DiskFaults::diskFsyncErrors), disk(DiskFaults::repairDisks), Fault.Trait.NEEDS_LAZYFS);
        add("disk-full", "a random node's disk is full: writes that need space fail with ENOSPC (implies --lazyfs); "
                        + "repair it at the heal and restart the server if it exited", Fault.Family.DISK,
                disk(DiskFaults::diskFull), disk(DiskFaults::repairDisks), Fault.Trait.NEEDS_LAZYFS);
        add("disk-slow-fsync", "a random node's fsyncs each take a seeded " + SLOW_FSYNC_LEAST.toMillis() + " ms to "
                        + SLOW_FSYNC_MOST.toSeconds() + " s more (implies --lazyfs); repair it at the heal",
                Fault.Family.DISK,
                disk(a -> a.slowFsyncs(SLOW_FSYNC_LEAST, SLOW_FSYNC_MOST)), disk(DiskFaults::repairDisks),
                Fault.Trait.NEEDS_LAZYFS);
        // protocol-aware: frame triggers on the quorum links (the backend's FrameProtocol names the moments)
        add("cut-during-sync", "reset a quorum connection right after a seeded moment of a follower's sync "
                        + "(DIFF/TRUNC/SNAP, snapshot, NEWLEADER, its ACK, UPTODATE, a proposal), then provoke a sync; "
                        + "at the heal crash-restart that follower", Fault.Family.CRASH,
                sync(a -> a.cutDuringSync(SYNC_LAG_MAX)),
                sync(a -> a.disarmSyncFault(true)), Fault.Trait.AT_PROTOCOL_MOMENT);
        add("stall-during-snapshot", "stall a quorum connection (open, nothing passes) after a seeded number of "
                        + "snapshot bytes of a SNAP sync, then provoke a sync", Fault.Family.CRASH,
                sync(a -> a.stallDuringBody(SYNC_LAG_MAX, SNAPSHOT_BYTES_MAX)),
                sync(a -> a.disarmSyncFault(false)), Fault.Trait.AT_PROTOCOL_MOMENT);
        add("crash-during-sync", "SIGKILL the receiver or the sender right after a seeded moment of a follower's "
                        + "sync and restart it; provoke a sync; at the heal crash-restart that follower",
                Fault.Family.CRASH,
                sync(a -> a.crashDuringSync(SYNC_LAG_MAX, TRIGGER_DELAY_MAX,
                        RESTART_DELAY_MAX)),
                sync(a -> a.disarmSyncFault(true)), Fault.Trait.AT_PROTOCOL_MOMENT);
    }


    private Faults() {
    }

    /**
     * A start or stop of the fault being added, given the fault's own name: what its records (and triggers) are
     * called, so that no action names a fault itself.
     */
    @FunctionalInterface
    private interface Named {
        FaultRecord apply(NemesisTarget target, String fault);
    }

    private static Named network(Function<NetworkFaults, FaultRecord> action) {
        return (t, name) -> action.apply(new NetworkFaults(t, name));
    }

    private static Named crash(Function<CrashFaults, FaultRecord> action) {
        return (t, name) -> action.apply(new CrashFaults(t, name));
    }

    private static Named pause(Function<PauseFaults, FaultRecord> action) {
        return (t, name) -> action.apply(new PauseFaults(t, name));
    }

    private static Named clock(Function<ClockFaults, FaultRecord> action) {
        return (t, name) -> action.apply(new ClockFaults(t, name));
    }

    private static Named disk(Function<DiskFaults, FaultRecord> action) {
        return (t, name) -> action.apply(new DiskFaults(t, name));
    }

    private static Named client(Function<ClientFaults, FaultRecord> action) {
        return (t, name) -> action.apply(new ClientFaults(t, name));
    }

    private static Named sync(Function<SyncFaults, FaultRecord> action) {
        return (t, name) -> action.apply(new SyncFaults(t, name));
    }

    private static void add(String name, String description, Fault.Family family, Named start, Named stop,
                            Fault.Trait... traits) {
        add(name, description, family, start, stop, 0, traits);
    }

    private static void add(String name, String description, Fault.Family family, Named start, Named stop,
                            double holdSessionTimeouts, Fault.Trait... traits) {
        ALL.put(name, Fault.of(name, description, family, t -> start.apply(t, name), t -> stop.apply(t, name),
                holdSessionTimeouts, traits));
    }

    private static void addClient(String name, String description, Named start, Named stop,
                                  double holdSessionTimeouts, Fault.Trait... more) {
        List<Fault.Trait> traits = new java.util.ArrayList<>(List.of(more));
        traits.add(Fault.Trait.ON_CLIENTS);
        add(name, description, Fault.Family.CLIENT, start, stop, holdSessionTimeouts,
                traits.toArray(Fault.Trait[]::new));
    }

    /** Every built-in fault, in a stable order. */
    public static List<Fault> all() {
        return List.copyOf(ALL.values());
    }

    /** The built-in fault of that name. */
    public static Optional<Fault> byName(String name) {
        return Optional.ofNullable(ALL.get(name));
    }

    /** Names with descriptions, in order. */
    public static Map<String, String> descriptions() {
        Map<String, String> m = new LinkedHashMap<>();
        ALL.forEach((n, f) -> m.put(n, f.description()));
        return Collections.unmodifiableMap(m);
    }
}
