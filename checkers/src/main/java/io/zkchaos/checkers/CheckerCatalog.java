package io.zkchaos.checkers;

import static io.zkchaos.checkers.CheckerOption.FAILOVER_BOUND;
import static io.zkchaos.checkers.CheckerOption.INIT;
import static io.zkchaos.checkers.CheckerOption.MAX_OVERLAP;
import static io.zkchaos.checkers.CheckerOption.MODEL;
import static io.zkchaos.checkers.CheckerOption.STRICT;
import static io.zkchaos.checkers.CheckerOption.TIME_LIMIT;

import io.zkchaos.checkers.churn.ChurnEphemeralsChecker;
import io.zkchaos.checkers.fenced.FencedWritesChecker;
import io.zkchaos.checkers.leader.SingleLeaderChecker;
import io.zkchaos.checkers.linear.LinearizabilityChecker;
import io.zkchaos.checkers.log.LogPrefixChecker;
import io.zkchaos.checkers.model.Models;
import io.zkchaos.checkers.multi.MultiTxnChecker;
import io.zkchaos.checkers.readmodel.ZkReadModelChecker;
import io.zkchaos.checkers.sequential.SequentialChecker;
import io.zkchaos.checkers.sessions.SessionGuaranteesChecker;
import io.zkchaos.checkers.recovery.RecoveryChecker;
import io.zkchaos.checkers.set.NoLostCommitChecker;
import io.zkchaos.checkers.state.FinalStateChecker;
import io.zkchaos.checkers.watches.WatchesChecker;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The checkers by name. {@link #standard()} holds the built-in ones; {@link #with} adds one (a user's own checker
 * plugs into {@code check --checker NAME} that way). Immutable.
 */
public final class CheckerCatalog {

    public static final String LINEARIZABLE = "linearizable";
    public static final String SINGLE_LEADER = "single-leader";
    public static final String NO_LOST_COMMIT = "no-lost-commit";
    public static final String FENCED_WRITES = "fenced-writes";
    public static final String ZK_READ_MODEL = "zk-read-model";
    public static final String LOG_PREFIX = "log-prefix";
    public static final String FINAL_STATE = "final-state";
    public static final String WATCHES = "watches";
    public static final String SESSION_GUARANTEES = SessionGuaranteesChecker.NAME;
    public static final String SEQUENTIAL_ZNODES = SequentialChecker.NAME;
    public static final String MULTI_TXN = MultiTxnChecker.NAME;
    public static final String RECOVERY = "recovery";
    public static final String CHURN_EPHEMERALS = ChurnEphemeralsChecker.NAME;

    private static final CheckerCatalog STANDARD = new CheckerCatalog(Map.of())
            .with(new CheckerDescriptor(LINEARIZABLE,
                    "linearizability against --model (Porcupine-style WGL search, per key)",
                    EnumSet.of(MODEL, INIT, TIME_LIMIT), CheckerCatalog::linearizable))
            .with(new CheckerDescriptor(SINGLE_LEADER, "at most one leader per fencing token, tokens only grow, "
                    + "leader overlaps and failover times (--max-overlap, --failover-bound)",
                    EnumSet.of(MAX_OVERLAP, FAILOVER_BOUND),
                    o -> new SingleLeaderChecker(o.maxOverlap(), o.failoverBound())))
            .with(new CheckerDescriptor(NO_LOST_COMMIT, "every acknowledged add is in every server's final read; "
                    + "nothing unwritten is read", EnumSet.noneOf(CheckerOption.class),
                    o -> new NoLostCommitChecker()))
            .with(new CheckerDescriptor(FENCED_WRITES, "no write accepted with a token lower than one already "
                    + "accepted", EnumSet.noneOf(CheckerOption.class), o -> new FencedWritesChecker()))
            .with(new CheckerDescriptor(ZK_READ_MODEL, "ZooKeeper's guarantees: writes, cas and sync-reads "
                    + "linearizable, plain reads sequentially consistent per session (--strict: stale reads fail "
                    + "too; --init)", EnumSet.of(INIT, TIME_LIMIT, STRICT),
                    o -> ZkReadModelChecker.of(o.init(), o.strict(), o.timeLimit())))
            .with(new CheckerDescriptor(LOG_PREFIX, "the fle nodes' committed logs are prefixes of one another; "
                    + "nothing committed disappears", EnumSet.noneOf(CheckerOption.class),
                    o -> new LogPrefixChecker()))
            .with(new CheckerDescriptor(FINAL_STATE, "after the heal every server holds the same data tree (read "
                    + "from each server); no ephemeral of an ended session outlives session timeout + margin",
                    EnumSet.noneOf(CheckerOption.class), o -> new FinalStateChecker()))
            .with(new CheckerDescriptor(WATCHES, "ZooKeeper's watch guarantees: events in the order of their changes, "
                    + "before the new data, none without a change, none lost while connected, one-time ones once",
                    EnumSet.noneOf(CheckerOption.class), o -> new WatchesChecker()))
            .with(new CheckerDescriptor(SESSION_GUARANTEES, "ephemerals of closed sessions never read after the close, "
                    + "gone within timeout + bound of a cut; session events in a legal order; nothing succeeds after a "
                    + "session ended", EnumSet.noneOf(CheckerOption.class), o -> new SessionGuaranteesChecker()))
            .with(new CheckerDescriptor(SEQUENTIAL_ZNODES, "sequential names unique, numbered in real-time order, "
                    + "none acknowledged lost, an indeterminate create present once or absent",
                    EnumSet.noneOf(CheckerOption.class), o -> new SequentialChecker()))
            .with(new CheckerDescriptor(MULTI_TXN, "multi transactions atomic and linearizable against the "
                    + "multi-register model; reads see them whole (--strict: and in real time)",
                    EnumSet.of(TIME_LIMIT, STRICT), o -> new MultiTxnChecker(o.timeLimit(), o.strict())))
            .with(new CheckerDescriptor(RECOVERY, "after the final heal the ensemble acknowledges writes again and "
                    + "every server serves, within the run's --recovery-bound (judged on the harness's probes)",
                    EnumSet.noneOf(CheckerOption.class), o -> new RecoveryChecker()))
            .with(new CheckerDescriptor(CHURN_EPHEMERALS, "session churn (--churn): no ephemeral of a closed or "
                    + "expired session outlives its timeout + margin after the final heal; a live session's "
                    + "acknowledged ephemerals exist (judged on the harness's reads of the churn root)",
                    EnumSet.noneOf(CheckerOption.class), o -> new ChurnEphemeralsChecker()));

    private final Map<String, CheckerDescriptor> byName;

    private CheckerCatalog(Map<String, CheckerDescriptor> byName) {
        this.byName = byName;
    }

    /** The built-in checkers. */
    public static CheckerCatalog standard() {
        return STANDARD;
    }

    /** A catalog with {@code d} added (or replacing the one of its name). */
    public CheckerCatalog with(CheckerDescriptor d) {
        Map<String, CheckerDescriptor> m = new LinkedHashMap<>(byName);
        m.put(d.name(), d);
        return new CheckerCatalog(java.util.Collections.unmodifiableMap(m));
    }

    /** Every checker, in order. */
    public List<CheckerDescriptor> all() {
        return List.copyOf(byName.values());
    }

    /** Every name, in order. */
    public List<String> names() {
        return List.copyOf(byName.keySet());
    }

    public Optional<CheckerDescriptor> byName(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /** @throws IllegalArgumentException naming the unknown checker and listing the known ones */
    public CheckerDescriptor require(String name) {
        return byName(name).orElseThrow(() -> new IllegalArgumentException("unknown checker '" + name
                + "'; known checkers: " + String.join(", ", byName.keySet())));
    }

    /** The standard checker {@code name} with {@code options}; throws as {@link #require} does. */
    public static Checker create(String name, CheckerOptions options) {
        return STANDARD.require(name).create(options);
    }

    private static Checker linearizable(CheckerOptions o) {
        if (o.model() == null) {
            throw new IllegalArgumentException("the linearizable checker needs --model; known models: "
                    + String.join(", ", Models.names()));
        }
        return LinearizabilityChecker.builder(Models.byName(o.model(), o.init())).timeLimit(o.timeLimit()).build();
    }
}
