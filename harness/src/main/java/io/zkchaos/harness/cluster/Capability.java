package io.zkchaos.harness.cluster;

import io.zkchaos.nemesis.ClockControl;
import io.zkchaos.nemesis.DataReplacement;
import io.zkchaos.nemesis.DiskControl;
import io.zkchaos.nemesis.Fault;
import io.zkchaos.nemesis.PowerFailure;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * What a backend can do for a system it runs, as data: a fault declares what it needs ({@link Fault.Trait}), a
 * backend what it supports ({@link ClusterBackend#capabilities}), and {@link Capabilities} compares the two in one
 * place, naming what is missing.
 *
 * <p>Some follow from the type of cluster a backend starts: the optional controls of the nemesis it implements
 * ({@link ClockControl}: {@link #CLOCKS}; {@link PowerFailure} and {@link DiskControl}: {@link #LAZY_FS};
 * {@link DataReplacement}: {@link #EMPTIES_DATA}), computed here only ({@link #following}); a backend adds what
 * depends on the system it runs or on its links, and leaves out what its system does not allow.
 */
public enum Capability {
    /** It runs this system at all. */
    RUNS("runs"),
    /** It can put every server's data directory on the lazy file system (writes held until fsync). */
    LAZY_FS("puts the data directories on the lazy file system"),
    /** Its links are tapped, and the system's quorum packets decoded, for faults at a protocol moment. */
    PROTOCOL_TAPS("taps the quorum links for faults at a protocol moment"),
    /** Its links can hold data back (latency with jitter): a proxy's can; a host's kernel needs {@code tc netem}. */
    LINK_DELAY("delays the data of its links (latency with jitter)"),
    /**
     * It can move a server's wall clock while it runs (libfaketime preloaded: installed on this machine for the local
     * backend, on every host for the ssh backend).
     */
    CLOCKS("moves a server's wall clock"),
    /** It can empty a stopped server's data directory, keeping its identity (the {@code replace-disk} fault). */
    EMPTIES_DATA("empties a server's data directory");

    private final String words;

    Capability(String words) {
        this.words = words;
    }

    /** What it is, after "backend X ...": {@code puts the data directories on the lazy file system}. */
    public String words() {
        return words;
    }

    /**
     * The capabilities that follow from the optional controls {@code clusterType} implements: a cluster that can move
     * clocks, lose, tear and fail what its servers write, or empty a data directory. A fresh set the caller may
     * change.
     */
    public static Set<Capability> following(Class<? extends Cluster> clusterType) {
        Set<Capability> out = EnumSet.noneOf(Capability.class);
        if (ClockControl.class.isAssignableFrom(clusterType)) {
            out.add(CLOCKS);
        }
        if (PowerFailure.class.isAssignableFrom(clusterType) && DiskControl.class.isAssignableFrom(clusterType)) {
            out.add(LAZY_FS);
        }
        if (DataReplacement.class.isAssignableFrom(clusterType)) {
            out.add(EMPTIES_DATA);
        }
        return out;
    }

    /** What a fault needs of the backend, if anything. */
    public static Optional<Capability> neededBy(Fault.Trait trait) {
        return switch (trait) {
            case NEEDS_LAZYFS -> Optional.of(LAZY_FS);
            case AT_PROTOCOL_MOMENT -> Optional.of(PROTOCOL_TAPS);
            case DELAYS_LINKS -> Optional.of(LINK_DELAY);
            case MOVES_CLOCKS -> Optional.of(CLOCKS);
            case EMPTIES_DATA -> Optional.of(EMPTIES_DATA);
            // client processes run on the harness's machine whatever the backend: their clocks are not its affair
            case ON_CLIENTS, ON_LEADING_CLIENT, NO_SERVICE, MOVES_CLIENT_CLOCKS -> Optional.empty();
        };
    }
}
