package io.zkchaos.checkers.evidence;

import io.zkchaos.checkers.history.History;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What a run exercised: how the client operations ended, over the run, while faults were in force and after the
 * final heal; what each fault did; and what the harness saw of the system itself. A verdict is evidence only if the
 * run exercised something, and this is how much ({@link Minimum} says whether it is enough).
 *
 * <p>Everything but the last four fields comes from the history alone ({@link #of(History)}); three are what the
 * harness observed of the servers and adds with {@link #withObserved}, the last what the checkers said they tested
 * ({@link #withPromises}).
 *
 * @param functions        the client operations by function, in order of first appearance
 * @param harness          the harness's own operations after the run (final reads, data-tree reads, the servers'
 *                         leadership as seen in their status; processes from {@link ExerciseReader#HARNESS_PROCESS_BASE}
 *                         up), by function
 * @param faults           what the nemesis did, by fault, in order of first appearance
 * @param finalHeal        whether the history holds the nemesis' final heal (a run cut short may not)
 * @param retiredProcesses client processes retired after an operation of unknown outcome (and replaced)
 * @param quorumSyncs      the syncs the leader opened per kind ({@code DIFF}, {@code TRUNC}, {@code SNAP}), as the
 *                         proxy's taps saw them; empty when nothing tapped the quorum links
 * @param leaderChanges    how often the servers' leader changed as the harness saw it; -1 when not observed
 * @param bugCodePaths     for the project's own nodes, how often each switched-on bug's code path ran; empty
 *                         otherwise
 * @param promises         by checker, every promise it judges with how often the run tested it (from findings that
 *                         are {@link TestsPromises}); empty before the checkers ran, and in evidence files written
 *                         before promises were counted
 */
public record Exercised(List<FunctionTally> functions, Map<String, OpCounts> harness, List<FaultTally> faults,
                        boolean finalHeal, long retiredProcesses, Map<String, Long> quorumSyncs,
                        long leaderChanges, Map<String, Long> bugCodePaths,
                        Map<String, List<PromiseTally>> promises) {

    public Exercised {
        functions = List.copyOf(functions);
        harness = sorted(harness);
        faults = List.copyOf(faults);
        quorumSyncs = sorted(quorumSyncs);
        bugCodePaths = sorted(bugCodePaths);
        TreeMap<String, List<PromiseTally>> p = new TreeMap<>();
        if (promises != null) { // absent from evidence files of older versions
            promises.forEach((checker, tallies) -> p.put(checker, List.copyOf(tallies)));
        }
        promises = java.util.Collections.unmodifiableSortedMap(p);
    }

    /** Without promises counted (as the history alone shows). */
    public Exercised(List<FunctionTally> functions, Map<String, OpCounts> harness, List<FaultTally> faults,
                     boolean finalHeal, long retiredProcesses, Map<String, Long> quorumSyncs, long leaderChanges,
                     Map<String, Long> bugCodePaths) {
        this(functions, harness, faults, finalHeal, retiredProcesses, quorumSyncs, leaderChanges, bugCodePaths,
                Map.of());
    }

    /** What the history shows was exercised. */
    public static Exercised of(History history) {
        return ExerciseReader.read(history);
    }

    /** This with what the harness observed of the servers. */
    public Exercised withObserved(Map<String, Long> quorumSyncs, long leaderChanges, Map<String, Long> bugCodePaths) {
        return new Exercised(functions, harness, faults, finalHeal, retiredProcesses, new TreeMap<>(quorumSyncs),
                leaderChanges, new TreeMap<>(bugCodePaths), promises);
    }

    /** This with what each checker said it put to the test, by checker name. */
    public Exercised withPromises(Map<String, List<PromiseTally>> byChecker) {
        return new Exercised(functions, harness, faults, finalHeal, retiredProcesses, quorumSyncs, leaderChanges,
                bugCodePaths, byChecker);
    }

    /** Every promise some checker judges but the run never tested, as {@code checker:promise}, in order. */
    public List<String> promisesNotTested() {
        List<String> out = new java.util.ArrayList<>();
        promises.forEach((checker, tallies) -> tallies.stream().filter(t -> !t.wasTested())
                .forEach(t -> out.add(checker + ":" + t.id())));
        return out;
    }

    /** The client operations of {@code f}, if any were made. */
    public Optional<FunctionTally> function(String f) {
        return functions.stream().filter(t -> t.f().equals(f)).findFirst();
    }

    /** The client operations of all functions in one part of the run. */
    public OpCounts clients(Phase phase) {
        OpCounts c = OpCounts.NONE;
        for (FunctionTally t : functions) {
            c = c.plus(t.in(phase));
        }
        return c;
    }

    /** What the nemesis did with {@code fault}, if it tried. */
    public Optional<FaultTally> fault(String fault) {
        return faults.stream().filter(t -> t.fault().equals(fault)).findFirst();
    }

    /** Fault starts that acted, over every fault. */
    public long faultsApplied() {
        return faults.stream().mapToLong(FaultTally::applied).sum();
    }

    /** Fault starts applied that the system felt (or of which nothing was measured), over every fault. */
    public long faultsFelt() {
        return faults.stream().mapToLong(FaultTally::felt).sum();
    }

    /** Fault starts attempted, over every fault. */
    public long faultsAttempted() {
        return faults.stream().mapToLong(FaultTally::attempted).sum();
    }

    private static <V> Map<String, V> sorted(Map<String, V> m) {
        Objects.requireNonNull(m);
        return java.util.Collections.unmodifiableSortedMap(new TreeMap<>(m));
    }
}
