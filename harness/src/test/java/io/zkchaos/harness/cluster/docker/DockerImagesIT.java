package io.zkchaos.harness.cluster.docker;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.DockerClient;
import io.zkchaos.harness.testing.Prerequisites;
import io.zkchaos.harness.testing.RunsAlone;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Built images on a real engine: a new build removes the earlier ones of its kind that nothing uses. */
@RunsAlone
class DockerImagesIT {

    static DockerClient client;
    private final String kind = "prune-test-" + UUID.randomUUID().toString().substring(0, 8);
    private final List<String> images = new ArrayList<>();
    private final List<String> containers = new ArrayList<>();

    @RegisterExtension
    static final ExecutionCondition DOCKER = Prerequisites.forClass("docker", DockerEngine::unavailable);

    @BeforeAll
    static void docker() {
        client = DockerEngine.client();
    }

    @AfterEach
    void removeWhatIsLeft() {
        DockerChecks.removeQuietly(client, containers, List.of(), images);
    }

    /** A one-file image {@code FROM scratch}, labelled like a build of {@code kind}. */
    private String build(String tag, String kindLabel) throws Exception {
        try (ScratchImage image = new ScratchImage()) {
            Files.writeString(image.at("/marker"), tag);
            image.build(tag, "FROM scratch\nCOPY rootfs/ /\nCMD [\"/marker\"]\n",
                    Map.of(DockerImages.BUILT_LABEL, kindLabel));
        }
        images.add(tag);
        return tag;
    }

    @Test
    void aNewBuildRemovesTheOlderOnesOfItsKindThatNoContainerUses() throws Exception {
        String old = build("zkchaos/" + kind + ":old", kind);
        String used = build("zkchaos/" + kind + ":used", kind);
        String other = build("zkchaos/" + kind + "-other:old", kind + "-other");
        String current = build("zkchaos/" + kind + ":current", kind);
        containers.add(client.createContainerCmd(used).exec().getId());

        assertThat(DockerImages.pruneOlderBuilds(client, Map.of(DockerImages.BUILT_LABEL, kind), current,
                DockerImages.PRUNE_AFTER)).as("images younger than an hour are kept").isEmpty();
        assertThat(DockerImages.present(client, old)).isTrue();

        assertThat(DockerImages.pruneOlderBuilds(client, Map.of(DockerImages.BUILT_LABEL, kind), current,
                Duration.ZERO)).containsExactly(old);
        assertThat(DockerImages.present(client, old)).as(old).isFalse();
        assertThat(DockerImages.present(client, used)).as(used + ", in use by a container").isTrue();
        assertThat(DockerImages.present(client, current)).as(current + ", the one to keep").isTrue();
        assertThat(DockerImages.present(client, other)).as(other + ", another kind").isTrue();
    }
}
