package io.zkchaos.harness.cluster.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Failure messages of version resolution, offline: the only remote is an empty file repository. */
class ZooKeeperResolverTest {

    @TempDir
    Path tmp;

    private ZooKeeperResolver offline() throws Exception {
        Path remote = Files.createDirectories(tmp.resolve("empty-remote"));
        return new ZooKeeperResolver(tmp.resolve("local"), List.of(remote.toUri().toString()));
    }

    @Test
    void aVersionNoRepositoryHasFailsNamingIt() throws Exception {
        ZooKeeperResolver r = offline();
        assertThatThrownBy(() -> r.resolve("3.7.99"))
                .isInstanceOf(VersionResolutionException.class)
                .hasMessageContaining("ZooKeeper version '3.7.99' cannot be resolved")
                .hasMessageContaining("empty-remote")
                .hasMessageContaining(tmp.resolve("local").toString())
                .extracting(e -> ((VersionResolutionException) e).version()).isEqualTo("3.7.99");
    }

    @Test
    void aMalformedVersionIsRejectedBeforeAnyLookup() throws Exception {
        ZooKeeperResolver r = offline();
        assertThatThrownBy(() -> r.resolve("3.9.5; rm -rf"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'3.9.5; rm -rf' is malformed");
        assertThat(tmp.resolve("local")).doesNotExist();
    }

    @Test
    void theLocalRepositoryFollowsMavenRepoLocal() {
        String before = System.getProperty("maven.repo.local");
        try {
            System.setProperty("maven.repo.local", tmp.resolve("elsewhere").toString());
            assertThat(ZooKeeperResolver.fromEnvironment().localRepository()).isEqualTo(tmp.resolve("elsewhere"));
            // one resolver per local repository, so that every cluster of the JVM shares its cache
            assertThat(ZooKeeperResolver.fromEnvironment()).isSameAs(ZooKeeperResolver.fromEnvironment());
        } finally {
            if (before == null) {
                System.clearProperty("maven.repo.local");
            } else {
                System.setProperty("maven.repo.local", before);
            }
        }
    }
}
