package io.zkchaos.harness.bench;

import static io.zkchaos.checkers.bench.Stats.median;

import io.zkchaos.harness.cluster.ZooKeeperVersion;
import io.zkchaos.harness.cluster.Cluster;
import io.zkchaos.harness.cluster.ClusterBackend;
import io.zkchaos.harness.cluster.ClusterBackends;
import io.zkchaos.harness.cluster.ClusterConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Backends side by side: how long a 3-node ensemble takes to start (until a quorum serves), and how long after
 * killing the leader a new leader and a quorum serve again. Run:
 * {@code java -cp "harness/target/classes:harness/target/lib/*" io.zkchaos.harness.bench.BackendBench
 * local,docker 3 5} (backends, starts, kills). The docker backend's first start includes building its images when
 * they are not on the engine yet (its summary line says so, with the build time).
 */
public final class BackendBench {

    private BackendBench() {
    }

    public static void main(String[] args) throws Exception {
        List<String> backends = List.of((args.length > 0 ? args[0] : "local,docker").split(","));
        int starts = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        int kills = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        Path root = Files.createTempDirectory("zkchaos-backend-bench");
        System.out.printf("# BackendBench: 3 nodes, ZooKeeper %s, %d cpus, load average %.1f%n",
                ZooKeeperVersion.DEFAULT.text(), Runtime.getRuntime().availableProcessors(),
                java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        for (String name : backends) {
            ClusterBackend backend = ClusterBackends.require(name);
            List<Long> startMs = new ArrayList<>();
            List<Long> failoverMs = new ArrayList<>();
            for (int s = 0; s < starts; s++) {
                ClusterConfig config = ClusterConfig.builder().nodes(3)
                        .runDirectory(root.resolve(name + "-" + s)).build();
                long t0 = System.nanoTime();
                try (Cluster c = backend.start(config)) {
                    startMs.add((System.nanoTime() - t0) / 1_000_000);
                    if (s == 0 && !c.summary().isEmpty()) {
                        System.out.println(name + ": " + c.summary());
                    }
                    if (s == starts - 1) {
                        for (int k = 0; k < kills; k++) {
                            String leader = c.leader().orElseThrow();
                            long k0 = System.nanoTime();
                            c.kill(leader);
                            while (true) {
                                Optional<String> now = c.leader();
                                if (now.isPresent() && !now.get().equals(leader)) {
                                    try {
                                        c.awaitQuorum(Duration.ofMillis(1));
                                        break;
                                    } catch (RuntimeException notYet) {
                                        // a leader but no quorum yet
                                    }
                                }
                                Thread.sleep(10);
                            }
                            failoverMs.add((System.nanoTime() - k0) / 1_000_000);
                            c.start(leader);
                            c.awaitQuorum(Duration.ofSeconds(60));
                            while (!c.status(leader).mode().serving()) {
                                Thread.sleep(50);
                            }
                        }
                    }
                }
            }
            System.out.println(name + ": start 3 nodes (until a quorum serves) ms " + startMs + ", median "
                    + median(startMs));
            System.out.println(name + ": failover after killing the leader (kill -> new leader and quorum) ms "
                    + failoverMs + ", median " + median(failoverMs));
        }
    }
}
