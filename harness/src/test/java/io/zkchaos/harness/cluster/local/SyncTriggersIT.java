package io.zkchaos.harness.cluster.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.Zk;
import io.zkchaos.nemesis.FaultRecord;
import io.zkchaos.nemesis.NodeState;
import io.zkchaos.nemesis.NemesisTarget;
import io.zkchaos.nemesis.faults.CrashFaults;
import io.zkchaos.nemesis.faults.SyncFaults;
import io.zkchaos.nemesis.frame.FrameTaps;
import io.zkchaos.nemesis.frame.FrameTrigger;
import io.zkchaos.nemesis.frame.SeenFrame;
import io.zkchaos.nemesis.frame.TriggerRecord;
import io.zkchaos.nemesis.net.Stream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Protocol-aware triggers and crash-restarts against a real 5-node ensemble (ZooKeeper 3.9.5, every quorum link
 * tapped): a restarted follower's sync is seen packet by packet, each trigger fires at the packet it names (what the
 * taps recorded on that connection ends with it), and restarted servers keep their data.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SyncTriggersIT {

    private static final Duration BOUND = Duration.ofSeconds(60);

    private Path runs;
    private LocalCluster cluster;
    private FrameTaps taps;
    private final List<TriggerRecord> fired = new CopyOnWriteArrayList<>();
    private int written;

    @BeforeAll
    void start() throws Exception {
        runs = Files.createTempDirectory("zkchaos-sync-triggers");
        cluster = LocalCluster.start(ClusterConfig.builder().nodes(5).runDirectory(runs.resolve("c5")).build());
        taps = cluster.frames().orElseThrow();
        taps.onFiring(fired::add);
    }

    @AfterAll
    void stop() throws java.io.IOException {
        try {
            List<Long> pids = ClusterChecks.pids(cluster).stream().filter(p -> p > 0).toList();
            List<InetSocketAddress> ports = cluster.proxyListenAddresses();
            cluster.close();
            ClusterChecks.assertNothingLeft(cluster, pids, ports);
            ClusterChecks.assertNoProcessUnder(runs);
        } finally {
            // the test leaves no temp directory behind (each run left one in /tmp)
            try (java.util.stream.Stream<Path> all = Files.walk(runs)) {
                for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    @BeforeEach
    void everyNodeServes() {
        fired.clear();
        for (String n : cluster.nodes()) {
            cluster.start(n);
            cluster.resume(n);
        }
        for (String n : cluster.nodes()) {
            cluster.awaitServing(n, BOUND);
        }
        assertThat(taps.decodingErrors()).isEqualTo("none");
    }

    /** The UPTODATE packets (each ends a learner's sync) the taps have seen so far. */
    private long syncsEnded() {
        return taps.counts().getOrDefault("UPTODATE", 0L);
    }

    /** Creates {@code n} more znodes /k-i through the whole ensemble. */
    private void write(int n) throws Exception {
        try (ZooKeeper zk = Zk.connect(cluster.connectString(), Duration.ofSeconds(10))) {
            for (int i = 0; i < n; i++) {
                assertThat(Zk.write(zk, "/k-" + written++)).isTrue();
            }
        }
    }

    /** Every znode written so far is on {@code node}, read from its own client port. */
    private void holdsEverything(String node) throws Exception {
        try (ZooKeeper zk = Zk.connect(cluster.directConnectString(node), Duration.ofSeconds(10))) {
            List<String> children = zk.getChildren("/", false);
            for (int i = 0; i < written; i++) {
                assertThat(children).as("%s holds /k-%d", node, i).contains("k-" + i);
            }
        }
    }

    private String follower() {
        String leader = cluster.leader().orElseThrow();
        return cluster.nodes().stream().filter(n -> !n.equals(leader)).findFirst().orElseThrow();
    }

    private static List<String> types(List<SeenFrame> frames) {
        return frames.stream().map(f -> f.frame().type()).toList();
    }

    @Test
    void aRestartedFollowerCatchesUpAndTheTapsSeeItsSyncPacketByPacket() throws Exception {
        write(10);
        String f = follower();
        String leader = cluster.leader().orElseThrow();
        cluster.kill(f);
        write(10); // while it is down: its sync must carry these
        long before = taps.lastSeq();
        cluster.start(f);
        cluster.awaitServing(f, BOUND);
        holdsEverything(f);

        String link = f + "-" + cluster.leader().orElseThrow() + "-quorum";
        assertThat(cluster.leader()).contains(leader);
        List<SeenFrame> sync = taps.seenAfter(before).stream().filter(s -> s.link().equals(link)).toList();
        List<SeenFrame> down = sync.stream().filter(s -> s.stream() == Stream.DOWNSTREAM).toList();
        List<SeenFrame> up = sync.stream().filter(s -> s.stream() == Stream.UPSTREAM).toList();
        assertThat(types(down)).startsWith("LEADERINFO", "DIFF").contains("PROPOSAL", "COMMIT", "NEWLEADER",
                "UPTODATE");
        assertThat(down.stream().filter(s -> s.frame().type().equals("PROPOSAL")
                && s.frame().phase().equals("sync")).count())
                .as("the 10 writes it missed (and the writer's session), in its sync").isGreaterThanOrEqualTo(10);
        assertThat(types(up)).startsWith("FOLLOWERINFO", "ACKEPOCH", "ACK");
        assertThat(up.get(2).frame().phase()).isEqualTo("sync");
        assertThat(down.get(0).sender()).isEqualTo(leader);
        assertThat(down.get(0).receiver()).isEqualTo(f);
    }

    @Test
    void eachSyncMomentFiresAtThePacketItNames() throws Exception {
        record Case(Set<String> types, FrameTrigger.Action action) {
        }
        List<Case> cases = List.of(
                new Case(Set.of("DIFF", "TRUNC", "SNAP"), FrameTrigger.Action.CUT),
                new Case(Set.of("PROPOSAL"), FrameTrigger.Action.CUT),
                new Case(Set.of("NEWLEADER"), FrameTrigger.Action.CUT),
                new Case(Set.of("ACK"), FrameTrigger.Action.CUT),
                new Case(Set.of("UPTODATE"), FrameTrigger.Action.STALL));
        List<String> seen = new ArrayList<>();
        for (Case c : cases) {
            String f = follower();
            cluster.kill(f);
            write(3);
            taps.arm(new FrameTrigger("it", c.types(), "sync", 1, -1, c.action(), FrameTrigger.Victim.RECEIVER,
                    Duration.ZERO, null), cluster);
            cluster.start(f);
            await().atMost(BOUND).until(() -> !taps.waiting("it"));
            List<TriggerRecord> r = taps.disarm("it");
            assertThat(r).hasSize(1);
            TriggerRecord t = r.get(0);
            assertThat(t.fired()).isTrue();
            assertThat(c.types()).contains(t.frame());
            assertThat(t.phase()).isEqualTo("sync");
            String leader = t.stream().equals("downstream") ? t.sender() : t.receiver();
            assertThat(t.link()).isEqualTo(f + "-" + leader + "-quorum");
            // on that connection and stream, the frame that fired is the last that passed
            SeenFrame at = taps.seen().stream().filter(s -> s.link().equals(t.link())
                    && s.connection() == t.connection()
                    && s.stream().wireName().equals(t.stream()) && s.frame().type().equals(t.frame())
                    && (s.frame().id() < 0 ? "" : "0x" + Long.toHexString(s.frame().id())).equals(t.id()) && s.frame().phase().equals("sync"))
                    .reduce((a, b) -> b).orElseThrow(() -> new AssertionError("no frame " + t + " in the taps' log; "
                            + "on that link: " + taps.seen().stream().filter(s -> s.link().equals(t.link())).toList()));
            List<SeenFrame> later = taps.seen().stream().filter(s -> s.connection() == at.connection()
                    && s.link().equals(at.link()) && s.stream() == at.stream() && s.seq() > at.seq()).toList();
            assertThat(later).as("frames that passed after %s fired at %s", t, at).isEmpty();
            seen.add(t.frame());
            cluster.awaitServing(f, BOUND);
            holdsEverything(f);
        }
        assertThat(seen).hasSize(5);
        assertThat(fired).hasSize(5);
    }

    @Test
    void aCrashAtNewLeaderKillsTheFollowerThereAndItComesBackWithItsData() throws Exception {
        write(5);
        String f = follower();
        cluster.kill(f);
        write(5);
        taps.arm(new FrameTrigger("crash", Set.of("NEWLEADER"), "sync", 1, -1, FrameTrigger.Action.KILL,
                FrameTrigger.Victim.RECEIVER, Duration.ZERO, null), cluster);
        long pidBefore = cluster.pid(f);
        cluster.start(f);
        await().atMost(BOUND).until(() -> !taps.waiting("crash"));
        TriggerRecord t = taps.disarm("crash").get(0);
        assertThat(t.frame()).isEqualTo("NEWLEADER");
        assertThat(t.receiver()).isEqualTo(f);
        assertThat(t.nodes()).containsExactly(f);
        assertThat(cluster.state(f)).isEqualTo(NodeState.DOWN);
        assertThat(pidBefore).isEqualTo(-1);
        cluster.start(f);
        cluster.awaitServing(f, BOUND);
        holdsEverything(f);
    }

    @Test
    void crashRestartNemesesLeaveEveryServerWithItsData() throws Exception {
        write(10);
        NemesisTarget target = cluster.nemesisTarget(new Random(5));
        FaultRecord all = new CrashFaults(target, "restart-all").restartAll(Duration.ofMillis(300));
        assertThat(all.nodes()).hasSize(5);
        cluster.awaitQuorum(BOUND);
        write(5);
        FaultRecord roll = new CrashFaults(target, "rolling-restart").rollingRestart(BOUND);
        assertThat(roll.description()).doesNotContain("did not serve");
        assertThat(roll.description().split("\\(serves\\)", -1)).as(roll.description()).hasSize(6);
        for (String n : cluster.nodes()) {
            cluster.awaitServing(n, BOUND);
            holdsEverything(n);
        }
    }

    @Test
    void theProtocolNemesesArmProvokeAndSayWhatFired() throws Exception {
        NemesisTarget target = cluster.nemesisTarget(new Random(3));
        List<FaultRecord> ends = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            long syncsEnded = syncsEnded();
            FaultRecord start = round == 0 ? new SyncFaults(target, "cut-during-sync").cutDuringSync(Duration.ofSeconds(1))
                    : round == 1 ? new SyncFaults(target, "crash-during-sync").crashDuringSync(
                            Duration.ofSeconds(1), Duration.ofMillis(20), Duration.ofMillis(200))
                    : new SyncFaults(target, "stall-during-snapshot").stallDuringBody(Duration.ofSeconds(1), 1000);
            assertThat(start.description()).startsWith("armed: ").contains("provoked a sync: ");
            String fault = start.fault();
            write(5);
            // give the provoked sync its time: until the trigger fired, or a sync ended (an UPTODATE) since the
            // provocation and every server serves again, so that the provoked syncs are over; a trigger whose moment
            // never comes stays armed
            await().atMost(Duration.ofSeconds(15))
                    .until(() -> !taps.waiting(fault) || syncsEnded() > syncsEnded && cluster.nodes().stream()
                            .allMatch(n -> cluster.status(n).mode().serving()));
            FaultRecord end = new SyncFaults(target, fault).disarmSyncFault(true);
            assertThat(end.triggers()).hasSize(1);
            TriggerRecord t = end.triggers().get(0);
            if (t.fired()) {
                assertThat(t.phase()).isEqualTo("sync");
                assertThat(end.description()).contains("fired on " + t.frame())
                        .contains("crash-restart the learner");
            } else {
                assertThat(end.description()).contains("never fired within the fault window");
            }
            ends.add(end);
            for (String n : cluster.nodes()) {
                cluster.awaitServing(n, BOUND);
            }
        }
        for (String n : cluster.nodes()) {
            holdsEverything(n);
        }
        assertThat(ends).hasSize(3);
    }

    @Test
    void laggingFollowersOnFiveNodesAreOneOrTwoAndCatchUpOneByOne() throws Exception {
        NemesisTarget target = cluster.nemesisTarget(new Random(11));
        FaultRecord stop = new CrashFaults(target, "lagging-follower").stopFollowers();
        assertThat(stop.nodes()).hasSizeBetween(1, 2).doesNotContain(cluster.leader().orElseThrow());
        write(20);
        FaultRecord back = new CrashFaults(target, "heal").catchUp(BOUND, Duration.ofMillis(200));
        assertThat(back.description()).contains("restart " + stop.nodes().get(0)).doesNotContain("did not serve");
        for (String n : cluster.nodes()) {
            cluster.awaitServing(n, BOUND);
            holdsEverything(n);
        }
    }
}
