package io.zkchaos.harness.cluster.local;

import io.zkchaos.harness.cluster.Capability;
import io.zkchaos.harness.cluster.Cluster;
import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.NamedBackend;
import io.zkchaos.harness.cluster.SystemUnderTest;
import io.zkchaos.harness.process.ProcessClock;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;

/**
 * The default backend: every server its own JVM process on a loopback address of this machine, every link through
 * the embedded fault proxy. Needs no Docker and no root.
 */
public final class LocalBackend extends NamedBackend {

    public LocalBackend() {
        super("local", "one JVM process per server on 127.0.0.x, every link through the embedded fault proxy",
                LocalCluster.class, EnumSet.allOf(SystemUnderTest.class), EnumSet.of(Capability.LINK_DELAY));
    }

    /**
     * Both systems, each on the lazy file system if asked, with movable clocks (libfaketime preloaded,
     * {@link ProcessClock}), every link delayed at will; the quorum links of ZooKeeper are tapped (the fle nodes speak
     * their own protocol, which no decoder reads). Where this machine lacks libfaketime or FUSE is
     * {@link #missingHere}'s to say.
     */
    @Override
    protected Set<Capability> declared(SystemUnderTest system) {
        Set<Capability> has = EnumSet.copyOf(super.declared(system));
        if (system == SystemUnderTest.ZOOKEEPER) {
            has.add(Capability.PROTOCOL_TAPS);
        }
        return has;
    }

    /** The clocks need libfaketime on this machine; the lazy file system needs FUSE, root and a C compiler. */
    @Override
    public java.util.Optional<String> missingHere(Capability capability, SystemUnderTest system) {
        return switch (capability) {
            case CLOCKS -> ProcessClock.library().isPresent() ? java.util.Optional.empty()
                    : java.util.Optional.of("libfaketime (" + ProcessClock.notFound() + ")");
            case LAZY_FS -> io.zkchaos.harness.cluster.lazyfs.LazyFs.unavailable()
                    .map(why -> "the lazy file system (" + why + ")");
            default -> java.util.Optional.empty();
        };
    }

    @Override
    public String whyNot(Capability missing, SystemUnderTest system) {
        return switch (missing) {
            case EMPTIES_DATA -> "only ZooKeeper servers' data directories are emptied, not the fle nodes'";
            default -> "";
        };
    }

    @Override
    public Cluster start(ClusterConfig config) {
        return LocalCluster.start(config);
    }

    /** Ends the processes and lazy file systems of dead harnesses ({@link LocalCluster#reapLeftovers}). */
    @Override
    public void reapLeftovers(Path storeRoot) {
        LocalCluster.reapLeftovers(storeRoot);
    }
}
