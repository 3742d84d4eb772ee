package io.zkchaos.harness.cluster;

import java.util.EnumSet;
import java.util.Set;

/**
 * What every backend says the same way, written once: its name, its line for people, and its capabilities as what
 * its cluster class implements ({@link Capability#following}), plus {@link Capability#RUNS} and what it declares for
 * each system it runs. Only ZooKeeper servers' data directories are emptied ({@link Capability#EMPTIES_DATA}): the
 * fle nodes keep theirs on every backend.
 */
public abstract class NamedBackend implements ClusterBackend {

    private final String name;
    private final String description;
    private final Class<? extends Cluster> clusterType;
    private final Set<SystemUnderTest> systems;
    private final Set<Capability> declared;

    /**
     * @param clusterType the class of the clusters it starts: what optional controls it implements
     * @param systems     the systems it runs; for any other it can do nothing
     * @param declared    what it can do beyond what its cluster class implements, for every system it runs
     */
    protected NamedBackend(String name, String description, Class<? extends Cluster> clusterType,
                           Set<SystemUnderTest> systems, Set<Capability> declared) {
        this.name = name;
        this.description = description;
        this.clusterType = clusterType;
        this.systems = Set.copyOf(systems);
        this.declared = Set.copyOf(declared);
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final String description() {
        return description;
    }

    @Override
    public final Set<Capability> capabilities(SystemUnderTest system) {
        if (!systems.contains(system)) {
            return EnumSet.noneOf(Capability.class);
        }
        Set<Capability> has = Capability.following(clusterType);
        has.add(Capability.RUNS);
        has.addAll(declared(system));
        if (system != SystemUnderTest.ZOOKEEPER) {
            has.remove(Capability.EMPTIES_DATA);
        }
        return has;
    }

    /** What it can do for {@code system} beyond what its cluster class implements: as declared, for any system. */
    protected Set<Capability> declared(SystemUnderTest system) {
        return declared;
    }
}
