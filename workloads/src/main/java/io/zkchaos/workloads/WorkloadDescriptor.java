package io.zkchaos.workloads;

import io.zkchaos.checkers.evidence.Minimum;
import io.zkchaos.checkers.evidence.Phase;
import io.zkchaos.checkers.evidence.Requirement;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * A workload by the name the CLI takes: what it does, how to make it, and which checkers judge its history. The
 * single source for {@code scenarios}, {@code run} and the chaos suite.
 *
 * @param name        e.g. {@code register}
 * @param description one line for people
 * @param factory     makes the workload from the settings
 * @param checkers    the names of the checkers (in {@link io.zkchaos.checkers.CheckerCatalog}) that judge a run
 * @param processClients whether its clients can run in processes of their own (its factory makes a
 *                    {@link SlottedWorkload})
 * @param minimum     what a run of it must have exercised for its verdict to be evidence (its clients' side; the
 *                    nemesis adds its own, {@code NemesisDescriptor.minimum})
 * @param underFault  the functions its clients must get acknowledged while a fault that leaves a serving quorum is in
 *                    force (empty set: any function); empty when it asks none (an election's acquisitions come when
 *                    leadership changes, not at the nemesis' pace)
 * @param writes      its functions that change the system's state when acknowledged (docs/evidence.md, "What counts
 *                    as a write"): what "a write acknowledged" means for it, in evidence and in {@code recovery};
 *                    empty when not declared (a workload that is not built in: the recovery checker then counts the
 *                    built-in workloads' writes, {@link io.zkchaos.checkers.recovery.RecoveryChecker#KNOWN_WRITES})
 */
public record WorkloadDescriptor(String name, String description, Function<WorkloadOptions, Workload> factory,
                                 List<String> checkers, boolean processClients, Minimum minimum,
                                 Optional<Set<String>> underFault, Set<String> writes) {

    /** The requirement id of the default minimum: some operation acknowledged in the main phase. */
    public static final String ACKED_MAIN = "acked-main";

    public WorkloadDescriptor {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(factory, "factory");
        checkers = List.copyOf(checkers);
        if (checkers.isEmpty()) {
            throw new IllegalArgumentException("workload " + name + " names no checker to judge it");
        }
        Objects.requireNonNull(minimum, "minimum");
        underFault = underFault.map(Set::copyOf);
        writes = Set.copyOf(writes);
    }

    /** A workload with its evidence rules and no writes declared ({@link #withWrites} declares them). */
    public WorkloadDescriptor(String name, String description, Function<WorkloadOptions, Workload> factory,
                              List<String> checkers, boolean processClients, Minimum minimum,
                              Optional<Set<String>> underFault) {
        this(name, description, factory, checkers, processClients, minimum, underFault, Set.of());
    }

    /**
     * A workload held to the default minimum (some operation acknowledged in the main phase) and nothing under
     * faults; {@link #withEvidence} says more.
     */
    public WorkloadDescriptor(String name, String description, Function<WorkloadOptions, Workload> factory,
                              List<String> checkers, boolean processClients) {
        this(name, description, factory, checkers, processClients, Minimum.of(acknowledged(ACKED_MAIN, Phase.MAIN)),
                Optional.empty());
    }

    /** A workload whose clients run only as threads of the harness. */
    public WorkloadDescriptor(String name, String description, Function<WorkloadOptions, Workload> factory,
                              List<String> checkers) {
        this(name, description, factory, checkers, false);
    }

    /** This workload with its evidence rules: {@code minimum}, and {@code underFault} as the record says. */
    public WorkloadDescriptor withEvidence(Minimum minimum, Optional<Set<String>> underFault) {
        return new WorkloadDescriptor(name, description, factory, checkers, processClients, minimum, underFault,
                writes);
    }

    /** This workload with {@code functions} declared as its writes (they replace any declared before). */
    public WorkloadDescriptor withWrites(String... functions) {
        return new WorkloadDescriptor(name, description, factory, checkers, processClients, minimum, underFault,
                Set.of(functions));
    }

    /** At least one client operation of {@code functions} (none named: any) acknowledged in {@code phase}. */
    public static Requirement acknowledged(String id, Phase phase, String... functions) {
        return new Requirement.Acknowledged(id, phase, Set.of(functions));
    }

    /**
     * {@code checker}'s {@code promise} put to the test at least once ({@code promise:CHECKER:PROMISE}): a promise
     * the workload claims for itself, mandatory. A promise not named so is reported only (listed with its count,
     * tested or not). docs/evidence.md has the table.
     */
    public static Requirement promiseTested(String checker, String promise) {
        return new Requirement.PromiseTested(checker, promise);
    }

    /** Makes the workload. */
    public Workload create(WorkloadOptions options) {
        return factory.apply(options);
    }

    /**
     * Makes the workload for clients in processes of their own.
     *
     * @throws IllegalArgumentException if its clients cannot run as processes
     */
    public SlottedWorkload createSlotted(WorkloadOptions options) {
        if (processClients && factory.apply(options) instanceof SlottedWorkload s) {
            return s;
        }
        throw new IllegalArgumentException("the clients of workload '" + name + "' cannot run as processes");
    }
}
