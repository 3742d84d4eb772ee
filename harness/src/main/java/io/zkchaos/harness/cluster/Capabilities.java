package io.zkchaos.harness.cluster;

import io.zkchaos.harness.process.ProcessClock;
import io.zkchaos.nemesis.Fault;
import io.zkchaos.nemesis.NemesisDescriptor;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The one check of what a run asks against what its backend can do for its system: the system itself, the lazy file
 * system, and each fault's needs. A nemesis that mixes faults keeps those the backend can do; one whose every fault
 * needs what is missing is refused, naming the fault and the missing part.
 */
public final class Capabilities {

    private Capabilities() {
    }

    /** {@link #requireCluster(ClusterBackend, SystemUnderTest, boolean, boolean)} for servers on the true time. */
    public static void requireCluster(ClusterBackend backend, SystemUnderTest system, boolean lazyFs) {
        requireCluster(backend, system, lazyFs, false);
    }

    /**
     * @param clocks whether the servers must start so that their wall clocks can be moved
     * @throws IllegalArgumentException naming the field ({@code system}, {@code lazyfs}, {@code clocks}) and what
     *                                  the backend lacks
     */
    public static void requireCluster(ClusterBackend backend, SystemUnderTest system, boolean lazyFs,
                                      boolean clocks) {
        Set<Capability> has = backend.capabilities(system);
        if (!has.contains(Capability.RUNS)) {
            List<String> runs = java.util.Arrays.stream(SystemUnderTest.values())
                    .filter(s -> backend.capabilities(s).contains(Capability.RUNS)).map(SystemUnderTest::id).toList();
            List<String> others = ClusterBackends.all().stream()
                    .filter(b -> b.capabilities(system).contains(Capability.RUNS)).map(ClusterBackend::name).toList();
            throw new IllegalArgumentException("system: the " + backend.name() + " backend runs "
                    + String.join(", ", runs) + " only, not " + system.id()
                    + (others.isEmpty() ? "" : " (it runs on --backend " + String.join(" or ", others) + ")"));
        }
        if (lazyFs && !has.contains(Capability.LAZY_FS)) {
            String why = backend.whyNot(Capability.LAZY_FS, system);
            throw new IllegalArgumentException("lazyfs: the " + backend.name() + " backend cannot put the data "
                    + "directories on the lazy file system" + (why.isBlank() ? "" : " (" + why + ")"));
        }
        if (clocks && !has.contains(Capability.CLOCKS)) {
            String why = backend.whyNot(Capability.CLOCKS, system);
            throw new IllegalArgumentException("clocks: the " + backend.name() + " backend cannot move a server's "
                    + "wall clock" + (why.isBlank() ? "" : " (" + why + ")"));
        }
    }

    /**
     * {@code nemesis} as {@code backend} can do it for {@code system}: the faults whose needs it meets.
     *
     * @throws IllegalArgumentException when it can do none of them, naming each fault and what it needs
     */
    public static NemesisDescriptor forBackend(NemesisDescriptor nemesis, ClusterBackend backend,
                                               SystemUnderTest system) {
        Set<Capability> has = backend.capabilities(system);
        List<Fault> kept = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (Fault f : nemesis.faults()) {
            List<Capability> lacks = f.traits().stream().flatMap(t -> Capability.neededBy(t).stream())
                    .filter(c -> !has.contains(c)).toList();
            if (f.is(Fault.Trait.MOVES_CLIENT_CLOCKS) && ProcessClock.library().isEmpty()) {
                // the client processes run on this machine whatever the backend: its libfaketime, not the backend's
                missing.add(f.name() + " needs libfaketime on this machine for the client processes (apt-get install "
                        + "libfaketime, or -D" + ProcessClock.LIBRARY_PROPERTY + "=PATH)");
            } else if (lacks.isEmpty()) {
                kept.add(f);
            } else {
                String why = backend.whyNot(lacks.get(0), system);
                missing.add(f.name() + " needs a backend that " + lacks.get(0).words() + (why.isBlank() ? ""
                        : " (" + why + ")"));
            }
        }
        if (kept.size() == nemesis.faults().size()) {
            return nemesis;
        }
        if (kept.isEmpty()) {
            throw new IllegalArgumentException("nemesis: the " + backend.name() + " backend running " + system.id()
                    + " cannot do '" + nemesis.name() + "': " + String.join("; ", missing));
        }
        return new NemesisDescriptor(nemesis.name(), nemesis.description(), kept);
    }
}
