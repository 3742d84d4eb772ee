package io.zkchaos.harness.run;

import io.zkchaos.checkers.Checker;
import io.zkchaos.checkers.Checkers;
import io.zkchaos.checkers.NamedCheckers;
import io.zkchaos.workloads.Workload;
import io.zkchaos.workloads.Workloads;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The workloads {@code ./zkchaos run --workload NAME} takes, each with the checkers that judge its history.
 */
public final class WorkloadCatalog {

    /** A workload's description and the checkers (by {@link NamedCheckers} name) that judge it. */
    record Entry(String name, String description, Function<RunConfig, List<Checker>> checkers) {
    }

    private static final String ROOT = "/zkchaos";
    private static final Map<String, Entry> ENTRIES = new LinkedHashMap<>();

    static {
        add(new Entry("register", "read / write / cas on a few znodes (plain or sync reads); ZooKeeper's read model",
                c -> List.of(NamedCheckers.byName("zk-read-model",
                        Map.of("strict", Boolean.toString(c.strict()), "time-limit", "60s")))));
        add(new Entry("set", "unique values added as znodes; final read from every server; no lost commit",
                c -> List.of(NamedCheckers.byName("no-lost-commit", Map.of()))));
        add(new Entry("election", "the herd-free election recipe (SPEC 5.1); at most one leader per token",
                WorkloadCatalog::singleLeader));
        add(new Entry("election-curator", "the same through Curator's LeaderLatch", WorkloadCatalog::singleLeader));
        add(new Entry("election-naive", "the naive watch-the-smallest recipe (herd effect), for comparison",
                WorkloadCatalog::singleLeader));
        add(new Entry("fenced-writes", "leaders append to a shared log with their fencing token; lower tokens rejected",
                WorkloadCatalog::fenced));
        add(new Entry("fenced-writes-curator", "the same with Curator's LeaderLatch electing the writers",
                WorkloadCatalog::fenced));
    }

    private WorkloadCatalog() {
    }

    private static void add(Entry e) {
        if (!Workloads.NAMES.contains(e.name())) {
            throw new IllegalStateException("no workload " + e.name() + " in " + Workloads.NAMES);
        }
        ENTRIES.put(e.name(), e);
    }

    private static List<Checker> fenced(RunConfig c) {
        List<Checker> all = new ArrayList<>(singleLeader(c));
        all.add(NamedCheckers.byName("fenced-writes", Map.of()));
        return all;
    }

    private static List<Checker> singleLeader(RunConfig c) {
        return List.of(NamedCheckers.byName("single-leader",
                Map.of("failover-bound", c.failoverBound().toMillis() + "ms")));
    }

    /** Workload names with a one-line description each, in a stable order. */
    public static Map<String, String> workloads() {
        Map<String, String> m = new LinkedHashMap<>();
        ENTRIES.forEach((n, e) -> m.put(n, e.description()));
        return Collections.unmodifiableMap(m);
    }

    /** @throws IllegalArgumentException naming the unknown workload and listing the known ones */
    public static void require(String workload) {
        if (workload == null || !ENTRIES.containsKey(workload)) {
            throw new IllegalArgumentException("unknown workload '" + workload + "'; known: "
                    + String.join(", ", ENTRIES.keySet()));
        }
    }

    static Workload create(RunConfig config) {
        require(config.workload());
        Workloads.Options defaults = Workloads.Options.defaults();
        // The set workload always syncs before its final reads: a lagging server must not look like a lost write.
        boolean sync = config.workload().equals("set") || config.syncReads();
        return Workloads.create(config.workload(), new Workloads.Options(ROOT, config.keys(), sync,
                defaults.holdMin(), defaults.holdMax(), config.rate()));
    }

    /** The composed checker that judges a run of this configuration's workload. */
    static Checker checker(RunConfig config) {
        require(config.workload());
        return Checkers.compose(config.workload(), ENTRIES.get(config.workload()).checkers().apply(config));
    }
}
