package io.zkchaos.workloads;

import static io.zkchaos.checkers.CheckerCatalog.FENCED_WRITES;
import static io.zkchaos.checkers.CheckerCatalog.FINAL_STATE;
import static io.zkchaos.checkers.CheckerCatalog.NO_LOST_COMMIT;
import static io.zkchaos.checkers.CheckerCatalog.SINGLE_LEADER;
import static io.zkchaos.checkers.CheckerCatalog.WATCHES;
import static io.zkchaos.checkers.CheckerCatalog.ZK_READ_MODEL;

import io.zkchaos.workloads.election.CuratorLatch;
import io.zkchaos.workloads.election.ElectionWorkload;
import io.zkchaos.workloads.election.OwnRecipe;
import io.zkchaos.workloads.fenced.FencedWritesWorkload;
import io.zkchaos.workloads.register.PinnedReadsRegister;
import io.zkchaos.workloads.register.RegisterWorkload;
import io.zkchaos.workloads.set.SetWorkload;
import io.zkchaos.workloads.watches.WatchesWorkload;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import io.zkchaos.checkers.evidence.Minimum;
import io.zkchaos.checkers.evidence.Phase;
import io.zkchaos.checkers.evidence.Requirement;

/**
 * The workloads by the names the CLI takes, in a stable order. A new workload is one class and one
 * {@link WorkloadDescriptor} line here.
 */
public final class Workloads {

    /**
     * What each workload's writes are (docs/evidence.md, "What counts as a write"): the functions whose
     * acknowledgement means the servers committed a change. An election's {@code acquire} is one: a candidate leads
     * only once its own create of its election znode was acknowledged (a new process is a new session, whose
     * ephemeral is new). A {@code release} is not (it is when a candidate stops believing it leads, often on an event
     * alone), nor the watches' {@code resolve} (a read of the writer's clock that writes a fence only sometimes).
     */
    private static final Set<String> ELECTION_WRITES = writes("acquire");
    private static final Set<String> FENCED_WRITES_WRITES = writes("acquire", "fenced-write");

    private static final Map<String, WorkloadDescriptor> ALL = new LinkedHashMap<>();

    static {
        add("register", "read / write / cas on a few znodes (plain or sync reads; --pin-reads: readers on one server, "
                        + "writers on the others); ZooKeeper's read model",
                o -> o.pinReads() == null
                        ? new RegisterWorkload(o.prefix() + "/register", o.keys(), o.reads()).withRate(o.rate())
                        : new PinnedReadsRegister(o.prefix() + "/register", o.keys(), o.reads(), o.pinReads(),
                                o.rate()),
                writes("write", "cas"), ZK_READ_MODEL, FINAL_STATE);
        // The set workload always syncs before its final reads: a lagging server must not look like a lost write.
        add("set", "unique values added as znodes; final read from every server; no lost commit",
                o -> new SetWorkload(o.prefix() + "/set", true).withRate(o.rate()), writes("add"), NO_LOST_COMMIT,
                FINAL_STATE);
        addSlotted("election", "the herd-free election recipe (SPEC 5.1); at most one leader per token",
                o -> new ElectionWorkload("election", o.prefix() + "/election", OwnRecipe.herdFree(), null,
                        o.holdMin(), o.holdMax()), ELECTION_WRITES, SINGLE_LEADER,
                FINAL_STATE);
        addSlotted("election-curator", "the same through Curator's LeaderLatch",
                o -> new ElectionWorkload("election-curator", o.prefix() + "/election", new CuratorLatch(), null,
                        o.holdMin(), o.holdMax()), ELECTION_WRITES, SINGLE_LEADER,
                FINAL_STATE);
        addSlotted("election-naive", "the naive watch-the-smallest recipe (herd effect), for comparison",
                o -> new ElectionWorkload("election-naive", o.prefix() + "/election", OwnRecipe.naive(), null,
                        o.holdMin(), o.holdMax()), ELECTION_WRITES, SINGLE_LEADER,
                FINAL_STATE);
        addSlotted("fenced-writes", "leaders append to a shared log with their fencing token; lower tokens rejected",
                o -> new FencedWritesWorkload("fenced-writes", o.prefix() + "/fenced", OwnRecipe.herdFree(),
                        o.holdMin(), o.holdMax(), o.writeEvery()), FENCED_WRITES_WRITES,
                SINGLE_LEADER, FENCED_WRITES, FINAL_STATE);
        addSlotted("fenced-writes-curator", "the same with Curator's LeaderLatch electing the writers",
                o -> new FencedWritesWorkload("fenced-writes-curator", o.prefix() + "/fenced", new CuratorLatch(),
                        o.holdMin(), o.holdMax(), o.writeEvery()), FENCED_WRITES_WRITES,
                SINGLE_LEADER, FENCED_WRITES, FINAL_STATE);
        // What goes wrong without fencing: judged by the same checkers, it fails once a stale leader's write lands.
        addSlotted("unfenced-writes", "the same log without fencing: every write is taken, whatever its token "
                        + "(shows what a frozen leader does without fencing)",
                o -> new FencedWritesWorkload("unfenced-writes", o.prefix() + "/fenced", OwnRecipe.herdFree(),
                        o.holdMin(), o.holdMax(), o.writeEvery(), false), FENCED_WRITES_WRITES,
                SINGLE_LEADER, FENCED_WRITES, FINAL_STATE);
        add("watches", "one-time and persistent watches set while writers create, set and delete a few znodes; "
                        + "every event recorded; ZooKeeper's watch guarantees",
                o -> new WatchesWorkload(o.prefix() + "/watches", o.keys(), o.rate()),
                writes("create", "set", "delete"), WATCHES, FINAL_STATE);
        ALL.put(ZnodeWorkloads.SESSIONS.name(), ZnodeWorkloads.SESSIONS);
        ALL.put(ZnodeWorkloads.SEQUENTIAL.name(), ZnodeWorkloads.SEQUENTIAL);
        ALL.put(ZnodeWorkloads.MULTI.name(), ZnodeWorkloads.MULTI);
    }

    private Workloads() {
    }

    private static Set<String> writes(String... functions) {
        return Set.of(functions);
    }

    private static void add(String name, String description, java.util.function.Function<WorkloadOptions,
            Workload> factory, Set<String> writes, String... checkers) {
        ALL.put(name, withEvidence(new WorkloadDescriptor(name, description, factory, List.of(checkers))
                .withWrites(writes.toArray(String[]::new))));
    }

    /** A workload whose clients can also run in processes of their own ({@link SlottedWorkload}). */
    private static void addSlotted(String name, String description, java.util.function.Function<WorkloadOptions,
            Workload> factory, Set<String> writes, String... checkers) {
        ALL.put(name, withEvidence(new WorkloadDescriptor(name, description, factory, List.of(checkers), true)
                .withWrites(writes.toArray(String[]::new))));
    }

    /**
     * What a run of each kind of workload must have exercised (docs/evidence.md): a register wrote and
     * read in the main phase and had a write acknowledged after the final heal, and got something through under a fault; a
     * set the same for adds, and every final read answered; an election had a leader; fenced writes had a write
     * accepted; watches had a change made, a watch set and an event delivered, and an event delivered under a fault.
     * Elections are not held to acknowledgements under faults: leadership changes at its own pace.
     */
    public static WorkloadDescriptor withEvidence(WorkloadDescriptor d) {
        return d.withEvidence(minimumOf(d.checkers()), d.checkers().contains(ZK_READ_MODEL)
                ? Optional.of(Set.of()) : d.checkers().contains(NO_LOST_COMMIT) ? Optional.of(Set.of("add"))
                : d.checkers().contains(WATCHES) ? Optional.of(Set.of("event")) : Optional.empty());
    }

    /** The minimum of a workload judged by {@code checkers}: each checker says what it needs to have judged. */
    public static Minimum minimumOf(List<String> checkers) {
        List<Requirement> rs = new java.util.ArrayList<>();
        if (checkers.contains(ZK_READ_MODEL)) {
            rs.add(WorkloadDescriptor.acknowledged("acked-writes", Phase.MAIN, "write", "cas"));
            rs.add(WorkloadDescriptor.acknowledged("acked-reads", Phase.MAIN, "read", "sync-read"));
            // a write: a read after the heal says nothing of whether the ensemble commits again
            rs.add(WorkloadDescriptor.acknowledged(ACKED_AFTER_HEAL, Phase.AFTER_HEAL, "write", "cas"));
        }
        if (checkers.contains(NO_LOST_COMMIT)) {
            rs.add(WorkloadDescriptor.acknowledged("acked-adds", Phase.MAIN, "add"));
            rs.add(WorkloadDescriptor.acknowledged(ACKED_AFTER_HEAL, Phase.AFTER_HEAL, "add"));
            rs.add(new Requirement.HarnessReadsDone("final-reads", "read"));
        }
        if (checkers.contains(SINGLE_LEADER) && !checkers.contains(ZK_READ_MODEL)
                && !checkers.contains(NO_LOST_COMMIT)) {
            rs.add(WorkloadDescriptor.acknowledged("acked-acquires", Phase.MAIN, "acquire"));
        }
        if (checkers.contains(WATCHES)) {
            rs.add(WorkloadDescriptor.acknowledged("acked-changes", Phase.MAIN, "create", "set", "delete"));
            rs.add(WorkloadDescriptor.acknowledged("watches-set", Phase.MAIN, "get-data", "exists", "get-children",
                    "add-watch"));
            rs.add(WorkloadDescriptor.acknowledged("events-delivered", Phase.MAIN, "event"));
            // Its watchers mostly set one-time watches and sync at the end: every nemesis leaves both tested. The
            // kinds of change and the persistent watches (3.6+) are reported only.
            rs.add(WorkloadDescriptor.promiseTested(WATCHES, "one-time"));
            rs.add(WorkloadDescriptor.promiseTested(WATCHES, "none-lost"));
        }
        if (checkers.contains(FENCED_WRITES)) {
            rs.add(WorkloadDescriptor.acknowledged("acked-fenced-writes", Phase.ALL, "fenced-write"));
        }
        return new Minimum(rs);
    }

    /** The requirement id of "something acknowledged after the final heal". */
    public static final String ACKED_AFTER_HEAL = "acked-after-heal";

    /** Every name, in order. */
    public static final List<String> NAMES = List.copyOf(ALL.keySet());

    private static final String OWN_RECIPE = "its candidates create their node with create2, whose Stat gives the "
            + "czxid that is their token";
    private static final String CURATOR = "Curator 5 speaks ZooKeeper 3.5's protocol (create2, container znodes)";

    /**
     * The workloads that need ZooKeeper 3.5 or later, and why: their candidates create with {@code create2} (the
     * own recipe learns its node's czxid, the fencing token, from the create; Curator 5 speaks 3.5's protocol and
     * makes container parents). A 3.4 server answers "unknown type 15" and no candidate is ever elected.
     */
    public static final java.util.Map<String, String> NEED_ZOOKEEPER_35 = java.util.Map.of(
            "election", OWN_RECIPE, "election-naive", OWN_RECIPE, "fenced-writes", OWN_RECIPE,
            "unfenced-writes", OWN_RECIPE, "election-curator", CURATOR, "fenced-writes-curator", CURATOR);

    /** Every workload, in order. */
    public static List<WorkloadDescriptor> all() {
        return List.copyOf(ALL.values());
    }

    /** Names with one-line descriptions, in order. */
    public static Map<String, String> descriptions() {
        Map<String, String> m = new LinkedHashMap<>();
        ALL.forEach((n, d) -> m.put(n, d.description()));
        return Collections.unmodifiableMap(m);
    }

    public static Optional<WorkloadDescriptor> byName(String name) {
        return Optional.ofNullable(ALL.get(name));
    }

    /** @throws IllegalArgumentException naming the unknown workload and listing the known ones */
    public static WorkloadDescriptor require(String name) {
        return byName(name).orElseThrow(() -> new IllegalArgumentException("unknown workload '" + name
                + "'; known: " + String.join(", ", ALL.keySet())));
    }

    /** The workload called {@code name}; throws naming the known names for an unknown one. */
    public static Workload create(String name, WorkloadOptions options) {
        return require(name).create(options);
    }
}
