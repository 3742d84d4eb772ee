package io.zkchaos.workloads.fle;

import static io.zkchaos.checkers.CheckerCatalog.LOG_PREFIX;
import static io.zkchaos.checkers.CheckerCatalog.NO_LOST_COMMIT;
import static io.zkchaos.checkers.CheckerCatalog.SINGLE_LEADER;
import static io.zkchaos.checkers.CheckerCatalog.ZK_READ_MODEL;

import io.zkchaos.workloads.Workload;
import io.zkchaos.workloads.WorkloadDescriptor;
import io.zkchaos.workloads.WorkloadOptions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The workloads the fle nodes offer, by the names the CLI takes — the same names as ZooKeeper's ({@code register},
 * {@code set}), each with the checkers that judge it on these nodes: besides the workload's own checker,
 * {@code log-prefix} (every node's committed log, read during the run and at the end) and {@code single-leader}
 * (the harness records each node's leadership from its status as {@code acquire}/{@code release} with the epoch as
 * the token: at most one leader per epoch, a leader again within the failover bound after every heal).
 */
public final class FleWorkloads {

    private static final Map<String, WorkloadDescriptor> ALL = new LinkedHashMap<>();

    static {
        add("register", "get / put / cas on a few keys through the nodes' KV API (plain or sync reads); "
                        + "ZooKeeper's read model, committed logs, one leader per epoch",
                o -> new FleRegisterWorkload(o.keys(), o.reads()).withRate(o.rate()), Set.of("write", "cas"),
                ZK_READ_MODEL, LOG_PREFIX, SINGLE_LEADER);
        add("set", "unique keys created (cas on an absent key); final read of every node; no lost commit, "
                        + "committed logs, one leader per epoch",
                o -> new FleSetWorkload().withRate(o.rate()), Set.of("add"), NO_LOST_COMMIT, LOG_PREFIX,
                SINGLE_LEADER);
    }

    private FleWorkloads() {
    }

    /**
     * @param writes the functions that change the nodes' state: a {@code put} ({@code write}), a compare-and-set
     *               ({@code cas}; the set's {@code add} is one on an absent key); {@code read}, {@code sync-read} and
     *               the log reads change nothing
     */
    private static void add(String name, String description, Function<WorkloadOptions, Workload> factory,
                            Set<String> writes, String... checkers) {
        // The same evidence rules as ZooKeeper's workloads of the name (the fle single-leader's acquisitions are
        // the harness's own observations, not the clients').
        ALL.put(name, io.zkchaos.workloads.Workloads.withEvidence(new WorkloadDescriptor(name, description, factory,
                List.of(checkers)).withWrites(writes.toArray(String[]::new))));
    }

    /** Every fle workload, in order. */
    public static List<WorkloadDescriptor> all() {
        return List.copyOf(ALL.values());
    }

    public static Optional<WorkloadDescriptor> byName(String name) {
        return Optional.ofNullable(ALL.get(name));
    }
}
