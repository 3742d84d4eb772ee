package io.zkchaos.workloads;

import java.util.List;
import java.util.Objects;
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
 */
public record WorkloadDescriptor(String name, String description, Function<WorkloadOptions, Workload> factory,
                                 List<String> checkers, boolean processClients) {

    public WorkloadDescriptor {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(factory, "factory");
        checkers = List.copyOf(checkers);
        if (checkers.isEmpty()) {
            throw new IllegalArgumentException("workload " + name + " names no checker to judge it");
        }
    }

    /** A workload whose clients run only as threads of the harness. */
    public WorkloadDescriptor(String name, String description, Function<WorkloadOptions, Workload> factory,
                              List<String> checkers) {
        this(name, description, factory, checkers, false);
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
