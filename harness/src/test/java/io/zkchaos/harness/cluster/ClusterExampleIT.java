package io.zkchaos.harness.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.zkchaos.harness.cluster.local.LocalCluster;
import io.zkchaos.nemesis.FaultRecord;
import io.zkchaos.nemesis.NemesisTarget;
import io.zkchaos.nemesis.faults.CrashFaults;
import io.zkchaos.nemesis.faults.NetworkFaults;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The example of docs/cluster.md ("Using it"), run against real servers: the doc's code block is the body of
 * {@link #example} (the first test checks that, line for line), and the second runs it and checks what it prints:
 * the leader, the proxies' connect string, and the fault records of an isolation, a heal, a kill and a restart.
 */
class ClusterExampleIT {

    private static final Path REPO = Path.of(System.getProperty("zkchaos.repo.root", ".."));
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path runs;

    static void example(Path runDirectory, PrintStream out) throws Exception {
        // doc:begin
        ClusterConfig config = ClusterConfig.builder()
                .nodes(3)                                    // n1..n3, each its own JVM on 127.0.0.101..103
                .version("3.9.5")                           // resolved from Maven Central into ~/.m2
                .maxSessionTimeout(Duration.ofSeconds(10))
                .runDirectory(runDirectory)                  // e.g. Path.of("target/example-run")
                .build();
        ObjectMapper json = new ObjectMapper();
        try (Cluster cluster = LocalCluster.start(config)) { // returns once a quorum serves
            out.println("leader: " + cluster.leader().orElseThrow());
            out.println("connect: " + cluster.connectString());
            try (ZooKeeper zk = new ZooKeeper(cluster.connectString(), 10_000, e -> { })) {
                // queued until the session is connected, then sent
                zk.create("/hello", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            }
            NemesisTarget target = cluster.nemesisTarget(new Random(42));
            FaultRecord isolate = new NetworkFaults(target, "isolate-leader").isolateLeader();
            out.println(json.writeValueAsString(isolate));
            String isolated = isolate.groups().get(0).get(0);
            long t0 = System.nanoTime();
            while (cluster.leader().filter(l -> !l.equals(isolated)).isEmpty()) {
                if (System.nanoTime() - t0 > Duration.ofSeconds(60).toNanos()) {
                    throw new IllegalStateException("no new leader within 60 s of isolating " + isolated);
                }
                Thread.sleep(20);
            }
            out.printf("new leader %s after %d ms%n", cluster.leader().orElseThrow(),
                    (System.nanoTime() - t0) / 1_000_000);
            out.println(json.writeValueAsString(new NetworkFaults(target, "heal").heal()));
            cluster.awaitQuorum(Duration.ofSeconds(30));     // a leader again before aiming at it
            out.println(json.writeValueAsString(new CrashFaults(target, "kill-leader").killLeader()));
            cluster.awaitQuorum(Duration.ofSeconds(30));
            out.println(json.writeValueAsString(new CrashFaults(target, "heal").restartDown()));
        }
        // doc:end
    }

    @Test
    void theDocsCodeBlockIsTheExamplesCode() throws IOException {
        List<String> source = Files.readAllLines(REPO.resolve(
                "harness/src/test/java/io/zkchaos/harness/cluster/ClusterExampleIT.java"));
        List<String> code = unindent(source.subList(source.indexOf("        // doc:begin") + 1,
                source.indexOf("        // doc:end")));
        List<String> doc = Files.readAllLines(REPO.resolve("docs/cluster.md"));
        int using = doc.indexOf("## Using it");
        int start = doc.subList(using, doc.size()).indexOf("```java") + using + 1;
        int end = doc.subList(start, doc.size()).indexOf("```") + start;
        assertThat(doc.subList(start, end)).as("the java block under 'Using it' in docs/cluster.md")
                .containsExactlyElementsOf(code);
    }

    @Test
    void theExampleRunsAndPrintsWhatTheDocShows() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        example(runs.resolve("example-run"), new PrintStream(bytes, true, StandardCharsets.UTF_8));
        List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
        assertThat(lines).as("printed").hasSize(7);

        Matcher leader = Pattern.compile("leader: (n[1-3])").matcher(lines.get(0));
        assertThat(leader.matches()).as(lines.get(0)).isTrue();
        String first = leader.group(1);
        assertThat(lines.get(1)).as("the proxies' client addresses, one per node")
                .matches("connect: 127\\.0\\.0\\.\\d+:\\d+,127\\.0\\.0\\.\\d+:\\d+,127\\.0\\.0\\.\\d+:\\d+");

        JsonNode isolate = JSON.readTree(lines.get(2));
        assertThat(isolate.get("fault").asText()).isEqualTo("isolate-leader");
        assertThat(isolate.get("groups").get(0)).as("the leader alone").containsExactly(JSON.valueToTree(first));
        assertThat(isolate.get("grudge").get(first)).hasSize(2);

        Matcher next = Pattern.compile("new leader (n[1-3]) after \\d+ ms").matcher(lines.get(3));
        assertThat(next.matches()).as(lines.get(3)).isTrue();
        String second = next.group(1);
        assertThat(second).isNotEqualTo(first);

        JsonNode heal = JSON.readTree(lines.get(4));
        assertThat(heal.get("fault").asText()).isEqualTo("heal");
        List<JsonNode> grudges = new ArrayList<>();
        heal.get("grudge").elements().forEachRemaining(grudges::add);
        assertThat(grudges).hasSize(3).allSatisfy(g -> assertThat(g).isEmpty());

        // The leader at that moment (usually still the new one; the heal may have moved it), then the same node back.
        JsonNode kill = JSON.readTree(lines.get(5));
        assertThat(kill.get("fault").asText()).isEqualTo("kill-leader");
        assertThat(kill.get("nodes")).hasSize(1);
        JsonNode restart = JSON.readTree(lines.get(6));
        assertThat(restart.get("fault").asText()).isEqualTo("restart");
        assertThat(restart.get("nodes")).isEqualTo(kill.get("nodes"));
    }

    /** The lines without the indentation they share. */
    private static List<String> unindent(List<String> lines) {
        int indent = lines.stream().filter(l -> !l.isBlank())
                .mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
        return lines.stream().map(l -> l.isBlank() ? "" : l.substring(indent)).toList();
    }
}
