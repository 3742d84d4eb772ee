package io.zkchaos.harness.cluster;

import io.zkchaos.workloads.WorkloadDescriptor;
import io.zkchaos.workloads.Workloads;
import io.zkchaos.workloads.fle.FleWorkloads;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The systems a run can put under test, by the names the CLI takes ({@code --system NAME}): what runs on the nodes
 * (the local backend starts each kind of server its own way) and which workloads it offers. Both run as N JVM
 * processes behind the same fault proxy, under the same nemeses.
 */
public enum SystemUnderTest {

    /** Apache ZooKeeper, the version under test resolved from Maven Central. */
    ZOOKEEPER("zookeeper", "Apache ZooKeeper (--zookeeper VERSION)"),

    /**
     * The project's own FastLeaderElection + ZAB nodes (module {@code fle}), with switchable known bugs
     * ({@code --bug NAME}); their leader election is under test too.
     */
    FLE("fle", "the project's own FastLeaderElection + ZAB nodes, with switchable known bugs (--bug NAME)");

    private final String id;
    private final String description;

    SystemUnderTest(String id, String description) {
        this.id = id;
        this.description = description;
    }

    /** The name the CLI takes. */
    public String id() {
        return id;
    }

    public String description() {
        return description;
    }

    /** The workloads this system offers, in order. */
    public List<WorkloadDescriptor> workloads() {
        return this == ZOOKEEPER ? Workloads.all() : FleWorkloads.all();
    }

    /** This system's workload called {@code name}. */
    public Optional<WorkloadDescriptor> workload(String name) {
        return workloads().stream().filter(d -> d.name().equals(name)).findFirst();
    }

    /** @throws IllegalArgumentException naming the workload and listing the ones this system offers */
    public WorkloadDescriptor requireWorkload(String name) {
        return workload(name).orElseThrow(() -> new IllegalArgumentException("unknown workload '" + name
                + "' for system " + id + "; it offers: "
                + workloads().stream().map(WorkloadDescriptor::name).collect(Collectors.joining(", "))));
    }

    /**
     * Whether the system's own leader election is under test: the harness then records every node's leadership
     * (from its status) in the history, for the {@code single-leader} checker.
     */
    public boolean electionUnderTest() {
        return this == FLE;
    }

    /** @throws IllegalArgumentException naming the unknown system and listing the known ones */
    public static SystemUnderTest parse(String name) {
        String n = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
        for (SystemUnderTest s : values()) {
            if (s.id.equals(n)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown system '" + name + "'; known: "
                + Arrays.stream(values()).map(SystemUnderTest::id).collect(Collectors.joining(", ")));
    }

    @Override
    public String toString() {
        return id;
    }
}
