package io.zkchaos.harness.cluster;

import static org.awaitility.Awaitility.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.nemesis.FaultRecord;
import io.zkchaos.nemesis.NemesisTarget;
import io.zkchaos.nemesis.faults.NetworkFaults;
import io.zkchaos.nemesis.net.CutMode;
import io.zkchaos.nemesis.net.Link;
import io.zkchaos.nemesis.net.Stream;
import io.zkchaos.nemesis.net.Toxic;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every partition shape on a real 5-node ensemble of a backend: the proxy's links match the recorded grudge; heal
 * restores a serving ensemble. Run for the local backend ({@code PartitionShapesIT}), the docker backend
 * ({@code DockerPartitionShapesChaosIT}) and the ssh backend ({@code SshPartitionShapesIT}).
 */
public abstract class PartitionShapesContract {

    @TempDir
    protected Path runs;

    /** Starts an ensemble of this backend. */
    protected abstract Cluster startCluster(ClusterConfig config);

    /** Fails if any peer connection of the running ensemble bypasses the fault proxy. */
    protected abstract void assertPeersOnlyThroughProxies(Cluster c) throws Exception;

    /** A check, run after close, that nothing of the ensemble is left. */
    protected abstract Runnable leftoverCheck(Cluster c);

    /** Fails if the proxy holds another state than its links report (for a proxy reached over an API). */
    protected void assertProxyAgrees(Cluster c) {
    }

    @Test
    void everyShapeCutsExactlyItsGrudgeAndHealRestoresAQuorum() throws Exception {
        Cluster cluster = startCluster(ClusterConfig.builder().nodes(5).runDirectory(runs.resolve("s")).build());
        Runnable leftovers = leftoverCheck(cluster);
        try {
            NemesisTarget target = cluster.nemesisTarget(new Random(42));
            // A toxic every backend can make (a host without tc netem cannot delay): partitions must leave it alone.
            cluster.links().clientLink("n1").addToxic(Toxic.timeout("kept", Stream.DOWNSTREAM, 0));
            List<Supplier<FaultRecord>> shapes = List.of(
                    new NetworkFaults(target, "isolate-random")::isolateRandom,
                    new NetworkFaults(target, "halves")::halves,
                    new NetworkFaults(target, "random-halves")::randomHalves,
                    new NetworkFaults(target, "bridge")::bridge,
                    new NetworkFaults(target, "majorities-ring")::majoritiesRing);
            for (Supplier<FaultRecord> shape : shapes) {
                FaultRecord r = shape.get();
                assertThat(cluster.links().grudge()).as(r.fault()).isEqualTo(r.grudge());
                assertLinksMatch(cluster, r.grudge(), CutMode.REFUSE);
                assertProxyAgrees(cluster);
            }
            assertThat(cluster.links().clientLink("n1").toxics()).as("partitions leave other toxics alone")
                    .extracting(Toxic::name).containsExactly("kept");

            // A one-way grudge (n2 does not hear n1) black-holes one stream of each link between them.
            cluster.links().applyGrudge(Map.of("n2", Set.of("n1")));
            assertLinksMatch(cluster, cluster.links().grudge(), CutMode.REFUSE);
            // Black-hole mode for symmetric cuts.
            cluster.links().cutMode(CutMode.BLACKHOLE);
            cluster.links().partition(List.of(List.of("n1", "n2")));
            assertLinksMatch(cluster, cluster.links().grudge(), CutMode.BLACKHOLE);
            assertProxyAgrees(cluster);

            new NetworkFaults(target, "heal").heal();
            for (Link l : cluster.links().allLinks()) {
                assertThat(l.enabled()).as(l.name()).isTrue();
                assertThat(l.toxics()).as(l.name()).isEmpty();
            }
            assertProxyAgrees(cluster);
            cluster.awaitQuorum(Duration.ofSeconds(30));
            await("all five serve").atMost(Duration.ofSeconds(30)).until(() ->
                    cluster.nodes().stream().allMatch(n -> cluster.status(n).mode().serving()));
            assertPeersOnlyThroughProxies(cluster);
        } finally {
            cluster.close();
        }
        leftovers.run();
    }

    /** Link a→b: upstream cut iff b does not hear a, downstream cut iff a does not hear b. */
    private static void assertLinksMatch(Cluster cluster, SortedMap<String, SortedSet<String>> grudge, CutMode mode) {
        for (String a : cluster.nodes()) {
            for (String b : cluster.nodes()) {
                if (a.equals(b)) {
                    continue;
                }
                boolean up = grudge.get(b).contains(a);
                boolean down = grudge.get(a).contains(b);
                for (Link l : cluster.links().peerLinks(a, b)) {
                    List<String> toxics = l.toxics().stream().map(Toxic::name).toList();
                    if (up && down && mode == CutMode.REFUSE) {
                        assertThat(l.enabled()).as("%s disabled", l.name()).isFalse();
                        assertThat(toxics).as(l.name()).isEmpty();
                    } else {
                        assertThat(l.enabled()).as("%s enabled", l.name()).isTrue();
                        assertThat(toxics.contains(Link.BLACKHOLE_UPSTREAM)).as("%s upstream cut", l.name())
                                .isEqualTo(up);
                        assertThat(toxics.contains(Link.BLACKHOLE_DOWNSTREAM)).as("%s downstream cut", l.name())
                                .isEqualTo(down);
                    }
                }
            }
        }
    }
}
