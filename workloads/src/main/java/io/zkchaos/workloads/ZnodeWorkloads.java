package io.zkchaos.workloads;

import static io.zkchaos.checkers.CheckerCatalog.FINAL_STATE;
import static io.zkchaos.checkers.CheckerCatalog.MULTI_TXN;
import static io.zkchaos.checkers.CheckerCatalog.SEQUENTIAL_ZNODES;
import static io.zkchaos.checkers.CheckerCatalog.SESSION_GUARANTEES;

import io.zkchaos.checkers.evidence.Minimum;
import io.zkchaos.checkers.evidence.Phase;
import io.zkchaos.checkers.evidence.Requirement;
import io.zkchaos.workloads.multi.MultiWorkload;
import io.zkchaos.workloads.sequential.SequentialWorkload;
import io.zkchaos.workloads.sessions.SessionsWorkload;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The descriptors of the workloads that check ZooKeeper's promises beyond linearizable writes: sessions and their
 * ephemerals, sequential znodes, multi transactions. Each names its checker and declares what a run of it must have
 * exercised (docs/evidence.md) and its writes: a session's {@code create} of an ephemeral and its
 * {@code close} or {@code expire} (another handle's close: a closeSession transaction that deletes its ephemerals; a
 * session's {@code open} is not counted, a client opens one to read too), a sequential {@code create}, a multi's
 * {@code txn}. {@link Workloads} lists them.
 */
public final class ZnodeWorkloads {

    private ZnodeWorkloads() {
    }

    /**
     * Sessions that create, read and close, are closed by another handle, and are expired by the nemesis; clients can
     * be processes of their own (so that the nemesis can freeze or kill them).
     */
    public static final WorkloadDescriptor SESSIONS = new WorkloadDescriptor("sessions", "short sessions create "
            + "ephemerals, read and watch them, close, are closed by another handle or expired by the nemesis; "
            + "session guarantees", o -> new SessionsWorkload(o.prefix() + "/sessions", o.rate()),
            List.of(SESSION_GUARANTEES, FINAL_STATE), true).withEvidence(new Minimum(List.of(
                    acknowledged("acked-ephemerals", Phase.MAIN, "create"),
                    acknowledged("acked-reads", Phase.MAIN, "read"),
                    acknowledged("acked-ends", Phase.MAIN, "close", "expire"),
                    acknowledged(Workloads.ACKED_AFTER_HEAL, Phase.AFTER_HEAL, "create", "close", "expire"),
                    // the workload cuts a share of its sessions off for longer than their timeout: expiry is tested
                    WorkloadDescriptor.promiseTested(SESSION_GUARANTEES, "expired"))),
            Optional.of(Set.of("create", "read"))).withWrites("create", "close", "expire");

    /** Concurrent sequential and ephemeral-sequential creates under a few parents, read by every server at the end. */
    public static final WorkloadDescriptor SEQUENTIAL = new WorkloadDescriptor("sequential", "concurrent sequential "
            + "and ephemeral-sequential creates under a few parents; names unique, in real-time order, none lost",
            o -> new SequentialWorkload(o.prefix() + "/sequential", o.keys()).withRate(o.rate()),
            List.of(SEQUENTIAL_ZNODES, FINAL_STATE)).withEvidence(new Minimum(List.of(
                    acknowledged("acked-creates", Phase.MAIN, "create"),
                    acknowledged(Workloads.ACKED_AFTER_HEAL, Phase.AFTER_HEAL, "create"),
                    new Requirement.HarnessReadsDone("final-reads", "read"),
                    WorkloadDescriptor.promiseTested(SEQUENTIAL_ZNODES, "ephemeral-sequential"))),
            Optional.of(Set.of("create"))).withWrites("create");

    /**
     * Transactions of check, set, create and delete over several znodes in one multi, and reads of all of them at
     * once (3.6+; one at a time before).
     */
    public static final WorkloadDescriptor MULTI = new WorkloadDescriptor("multi", "transactions of check + "
            + "setData / create / delete in one multi(), reads of every znode in one read-only multi (3.6+); atomic "
            + "and linearizable", o -> new MultiWorkload(o.prefix() + "/multi", o.keys()).withRate(o.rate()),
            List.of(MULTI_TXN, FINAL_STATE)).withEvidence(new Minimum(List.of(
                    acknowledged("acked-txns", Phase.MAIN, "txn"),
                    acknowledged("acked-reads", Phase.MAIN, "read"),
                    acknowledged(Workloads.ACKED_AFTER_HEAL, Phase.AFTER_HEAL, "txn"),
                    // committed transactions are acked-txns; aborted ones test atomicity's other half
                    WorkloadDescriptor.promiseTested(MULTI_TXN, "aborted"))),
            Optional.of(Set.of("txn", "read"))).withWrites("txn");

    private static Requirement acknowledged(String id, Phase phase, String... functions) {
        return WorkloadDescriptor.acknowledged(id, phase, functions);
    }
}
