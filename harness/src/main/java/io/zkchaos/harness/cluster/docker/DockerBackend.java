package io.zkchaos.harness.cluster.docker;

import io.zkchaos.harness.cluster.Capabilities;
import io.zkchaos.harness.cluster.Capability;
import io.zkchaos.harness.cluster.Cluster;
import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.NamedBackend;
import io.zkchaos.harness.cluster.SystemUnderTest;
import io.zkchaos.harness.process.Reaper;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;

/**
 * ZooKeeper in containers (Testcontainers), every link through one Toxiproxy container: see {@link DockerCluster}.
 * Needs a Docker engine (local, or remote through {@code DOCKER_HOST}) and never pulls an image: the official images
 * are used when present on the engine, substitutes are built otherwise ({@link DockerImages}).
 */
public final class DockerBackend extends NamedBackend {

    public DockerBackend() {
        super("docker", "ZooKeeper containers (Testcontainers) with every link through a Toxiproxy container",
                // ZooKeeper only, on the containers' own file systems, its links through Toxiproxy (delays, no taps)
                DockerCluster.class, EnumSet.of(SystemUnderTest.ZOOKEEPER), EnumSet.of(Capability.LINK_DELAY));
    }

    @Override
    public String whyNot(Capability missing, SystemUnderTest system) {
        return switch (missing) {
            case CLOCKS -> "its containers run on the host's clock, with nothing preloaded";
            case EMPTIES_DATA -> "a killed server's data directory is inside its stopped container, where no command "
                    + "runs";
            default -> "";
        };
    }

    @Override
    public Cluster start(ClusterConfig config) {
        Capabilities.requireCluster(this, config.system(), config.lazyFs(), config.clocks());
        return DockerCluster.start(config);
    }

    /**
     * Removes the containers and networks dead harnesses of this machine left on the engine (by label), and ends the
     * processes they left here (a run's client processes: {@link Reaper}).
     */
    @Override
    public void reapLeftovers(Path storeRoot) {
        DockerReaper.reapLeftovers();
        Reaper.reapLeftovers(storeRoot);
    }
}
