package io.zkchaos.harness.cluster;

import io.zkchaos.harness.process.ProcessClock;
import io.zkchaos.nemesis.Fault;
import io.zkchaos.nemesis.NemesisDescriptor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The one check of what a run asks against what its backend can do for its system: the system itself, the lazy file
 * system, and each fault's needs. A nemesis that mixes faults keeps those the backend can do (a property of the
 * backend, the same on every machine); one whose every fault needs what is missing is refused, naming the fault and
 * the missing part. What this machine lacks (libfaketime, FUSE) never changes the draw: {@link #requireHere} refuses
 * the run instead.
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
     * {@code nemesis} as {@code backend} can do it for {@code system}: the faults whose needs it meets. Pure in its
     * arguments: a backend's capabilities never consult the machine ({@link ClusterBackend#missingHere} does, and
     * {@link #requireHere} refuses a run whose faults need what the machine lacks), so the same configuration draws
     * from the same faults everywhere.
     *
     * @throws IllegalArgumentException when it can do none of them, naming each fault and what it needs
     */
    public static NemesisDescriptor forBackend(NemesisDescriptor nemesis, ClusterBackend backend,
                                               SystemUnderTest system) {
        Set<Capability> has = backend.capabilities(system);
        List<Fault> kept = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (Fault f : nemesis.faults()) {
            List<Capability> lacks = needs(f).stream().filter(c -> !has.contains(c)).toList();
            if (lacks.isEmpty()) {
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

    private static List<Capability> needs(Fault f) {
        return f.traits().stream().flatMap(t -> Capability.neededBy(t).stream()).distinct().toList();
    }

    /**
     * Refuses, before it starts, a run that needs what this machine lacks: the lazy file system when the run puts
     * the servers' data on it, and what its faults need here (libfaketime for the servers' clocks, through the
     * backend; libfaketime on this machine for the client processes' clocks, whatever the backend). A run is never
     * drawn again without them: the message names what is missing, and for a nemesis that mixes families, the
     * {@code --without} that leaves them out.
     *
     * @param nemesisName the nemesis as the run names it
     * @param drawn       the faults the run draws from ({@code RunConfig.nemesisDescriptor()})
     * @param scheduled   the faults a given schedule executes, or null when the run draws from the seed
     * @param mixes       whether the nemesis mixes families, so that {@code --without} can leave some out
     * @throws IllegalArgumentException naming what is missing and how to do without it
     */
    public static void requireHere(String nemesisName, NemesisDescriptor drawn, Set<String> scheduled,
                                   boolean mixes, ClusterBackend backend, SystemUnderTest system, boolean lazyFs) {
        if (lazyFs) {
            java.util.Optional<String> lazy = backend.missingHere(Capability.LAZY_FS, system);
            if (lazy.isPresent()) {
                throw new IllegalArgumentException("lazyfs: the run puts every server's data directory on the lazy "
                        + "file system, which this machine lacks: " + lazy.get() + "; install it, or run without "
                        + "--lazyfs" + (mixes ? " (nemesis " + nemesisName + " draws the faults that act on it only "
                        + "with --lazyfs)" : ""));
            }
        }
        Map<Fault.Family, List<String>> faultsOf = new java.util.TreeMap<>();
        Map<Fault.Family, Set<String>> lacksOf = new java.util.TreeMap<>();
        for (Fault f : drawn.faults()) {
            if (scheduled != null && !scheduled.contains(f.name())) {
                continue;
            }
            Set<String> lacks = lacksHere(f, backend, system);
            if (!lacks.isEmpty()) {
                faultsOf.computeIfAbsent(f.family(), x -> new ArrayList<>()).add(f.name());
                lacksOf.computeIfAbsent(f.family(), x -> new java.util.LinkedHashSet<>()).addAll(lacks);
            }
        }
        if (faultsOf.isEmpty()) {
            return;
        }
        List<String> parts = new ArrayList<>();
        faultsOf.forEach((family, names) -> parts.add(family.cliName() + " faults (" + String.join(", ", names)
                + "), which need " + String.join(" and ", lacksOf.get(family))));
        String families = String.join(",", faultsOf.keySet().stream().map(Fault.Family::cliName).toList());
        String what = scheduled != null ? "the schedule of nemesis " + nemesisName + " executes "
                : "nemesis " + nemesisName + " draws ";
        throw new IllegalArgumentException(what + String.join("; and ", parts) + "; install "
                + (lacksOf.values().stream().mapToInt(Set::size).sum() == 1 ? "it" : "them")
                + (mixes && scheduled == null ? " or leave the famil" + (faultsOf.size() == 1 ? "y" : "ies")
                + " out with --without " + families : ""));
    }

    /**
     * The families of {@code drawn} with a fault this machine cannot do ({@link #requireHere}), for a suite that runs
     * {@code mixed} wherever it is and leaves them out explicitly ({@code --without}), recorded with each run.
     */
    public static Set<Fault.Family> familiesMissingHere(NemesisDescriptor drawn, ClusterBackend backend,
                                                        SystemUnderTest system) {
        Set<Fault.Family> out = java.util.EnumSet.noneOf(Fault.Family.class);
        drawn.faults().stream().filter(f -> !lacksHere(f, backend, system).isEmpty()).forEach(f -> out.add(f.family()));
        return out;
    }

    /** What this machine lacks for {@code f}, in words; empty when nothing. */
    private static Set<String> lacksHere(Fault f, ClusterBackend backend, SystemUnderTest system) {
        Set<String> lacks = new java.util.LinkedHashSet<>();
        for (Capability c : needs(f)) {
            backend.missingHere(c, system).ifPresent(lacks::add);
        }
        if (f.is(Fault.Trait.MOVES_CLIENT_CLOCKS) && ProcessClock.library().isEmpty()) {
            // the client processes run on this machine whatever the backend: its libfaketime, not the backend's
            lacks.add("libfaketime on this machine for the client processes (" + ProcessClock.notFound() + ")");
        }
        return lacks;
    }
}
