package io.zkchaos.harness.cluster.docker;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.DockerClient;
import io.zkchaos.harness.cluster.zookeeper.ZooKeeperResolver;
import io.zkchaos.harness.process.Owner;
import io.zkchaos.harness.testing.Prerequisites;
import io.zkchaos.harness.testing.RunsAlone;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The docker backend's reaper, on real containers and networks of the engine: it removes exactly those whose labels
 * prove that a dead harness of this machine made them.
 */
@RunsAlone
class DockerReaperIT {

    static DockerClient client;
    static String image;
    final List<String> containers = new ArrayList<>();
    final List<String> networks = new ArrayList<>();

    @RegisterExtension
    static final ExecutionCondition DOCKER = Prerequisites.forClass("docker", DockerEngine::unavailable);

    @BeforeAll
    static void docker() {
        client = DockerEngine.client();
        image = DockerImages.zookeeper(client, "3.9.5", ZooKeeperResolver.fromEnvironment()).name();
    }

    @AfterEach
    void removeWhatIsLeft() {
        DockerChecks.removeQuietly(client, containers, networks, List.of());
    }

    private String container(String name, Map<String, String> labels) {
        String id = client.createContainerCmd(image).withName(name).withLabels(labels).exec().getId();
        containers.add(id);
        return id;
    }

    private String network(String name, Map<String, String> labels) {
        String id = client.createNetworkCmd().withName(name).withLabels(labels).exec().getId();
        networks.add(id);
        return id;
    }

    private boolean exists(String containerId) {
        return !client.listContainersCmd().withShowAll(true).withIdFilter(List.of(containerId)).exec().isEmpty();
    }

    @Test
    void removesWhatADeadHarnessOfThisMachineLeftAndNothingElse() {
        String host = DockerEngine.hostIdentity();
        // A pid that cannot be alive: beyond pid_max.
        Map<String, String> dead = Map.of(DockerReaper.RUN, "r-dead", DockerReaper.OWNER, "99999999@1",
                DockerReaper.HOST, host);
        Map<String, String> alive = Map.of(DockerReaper.RUN, "r-alive", DockerReaper.OWNER,
                Owner.current().toString(), DockerReaper.HOST, host);
        Map<String, String> elsewhere = Map.of(DockerReaper.RUN, "r-other", DockerReaper.OWNER, "99999999@1",
                DockerReaper.HOST, "another-machine/boot");
        String orphan = container("zkchaos-test-orphan", dead);
        String live = container("zkchaos-test-live", alive);
        String foreign = container("zkchaos-test-foreign", elsewhere);
        String unlabelled = container("zkchaos-test-unlabelled", Map.of());
        network("zkchaos-test-orphan-net", dead);
        String liveNet = network("zkchaos-test-live-net", alive);

        DockerReaper.Reaped reaped = DockerReaper.reapLeftovers();

        assertThat(reaped.containers()).containsExactly("/zkchaos-test-orphan");
        assertThat(reaped.networks()).containsExactly("zkchaos-test-orphan-net");
        assertThat(exists(orphan)).isFalse();
        assertThat(exists(live)).as("a live harness's container").isTrue();
        assertThat(exists(foreign)).as("another machine's container").isTrue();
        assertThat(exists(unlabelled)).as("a container zk-chaos did not make").isTrue();
        assertThat(client.listNetworksCmd().withIdFilter(liveNet).exec()).hasSize(1);
    }
}
