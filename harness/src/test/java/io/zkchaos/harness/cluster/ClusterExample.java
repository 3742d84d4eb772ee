package io.zkchaos.harness.cluster;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.zkchaos.harness.cluster.local.LocalCluster;
import io.zkchaos.nemesis.FaultActions;
import io.zkchaos.nemesis.FaultRecord;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/** The example of docs/cluster.md: start, write, isolate the leader, heal, print the fault records. */
public final class ClusterExample {

    private ClusterExample() {
    }

    public static void main(String[] args) throws Exception {
        ClusterConfig config = ClusterConfig.builder()
                .nodes(3)                                    // n1..n3, each its own JVM on 127.0.0.101..103
                .version("3.9.5")                           // resolved from Maven Central into ~/.m2
                .maxSessionTimeout(Duration.ofSeconds(10))
                .runDirectory(Path.of("target/example-run"))
                .build();
        ObjectMapper json = new ObjectMapper();
        try (Cluster cluster = LocalCluster.start(config)) { // returns once a quorum serves
            System.out.println("leader: " + cluster.leader().orElseThrow());
            System.out.println("connect: " + cluster.connectString());
            try (ZooKeeper zk = new ZooKeeper(cluster.connectString(), 10_000, e -> { })) {
                while (!zk.getState().isConnected()) {
                    Thread.sleep(20);
                }
                zk.create("/hello", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            }
            FaultActions faults = new FaultActions(cluster.nemesisTarget(new Random(42)));
            FaultRecord isolate = faults.isolateLeader();
            System.out.println(json.writeValueAsString(isolate));
            long t0 = System.nanoTime();
            while (cluster.leader().filter(l -> !l.equals(isolate.groups().get(0).get(0))).isEmpty()) {
                Thread.sleep(20);
            }
            System.out.printf("new leader %s after %d ms%n", cluster.leader().orElseThrow(),
                    (System.nanoTime() - t0) / 1_000_000);
            System.out.println(json.writeValueAsString(faults.heal()));
            System.out.println(json.writeValueAsString(faults.killLeader()));
            cluster.awaitQuorum(Duration.ofSeconds(30));
            System.out.println(json.writeValueAsString(faults.restartDown()));
        }
    }
}
