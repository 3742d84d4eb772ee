package io.zkchaos.harness.mutation;

import io.zkchaos.harness.mutation.Mutation.Expect;
import io.zkchaos.harness.suite.Shard;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * The mutation matrix (issue 11): for every bug flag of the fle nodes, a scenario that the checkers judge invalid —
 * or, where the rest of the protocol provably hides the mistake from every client, the row says so, names the
 * deterministic test in {@code fle} that shows the mistake happening and why no client-visible check can see it.
 * {@link MutationRunner} adds the correct build in every scenario, which must be valid every time.
 *
 * <p>The scenarios use the nemeses every run can use; their timing is chosen for a loaded 2-core machine, never to
 * make a bug show: where a heal restarts node JVMs, the failover bound is generous (a JVM start there can take
 * 20 s), since it judges liveness, not speed.
 */
public final class MutationMatrix {

    private static final Duration S5 = Duration.ofSeconds(5);

    /** The leader cut off from both followers (its clients still reach it), twice. */
    static final MutationScenario SET_ISOLATE_LEADER = new MutationScenario("set", "isolate-leader", 3,
            Duration.ofSeconds(20), S5, S5, Duration.ofSeconds(10), Duration.ofSeconds(10));

    /** The same on the register: linearizability of put, cas and sync-get. */
    static final MutationScenario REGISTER_ISOLATE_LEADER = new MutationScenario("register", "isolate-leader", 3,
            Duration.ofSeconds(20), S5, S5, Duration.ofSeconds(10), Duration.ofSeconds(10));

    /**
     * The whole ensemble SIGKILLed while clients write, twice; restarted at each heal. Each crash comes after 15 s
     * healed, so that the ensemble serves (and acknowledges writes) when it goes down even where restarts are slow.
     */
    static final MutationScenario SET_KILL_ALL = new MutationScenario("set", "kill-all", 3,
            Duration.ofSeconds(40), S5, Duration.ofSeconds(15), Duration.ofSeconds(25), Duration.ofSeconds(60));

    /**
     * A majority SIGKILLed, three times, in a seeded choice; restarted at each heal. Each kill, and the end of the main
     * phase, comes 20 s or more after the heal before it, so that the restarted nodes are up (a JVM start here can take
     * 15 s) while the survivor of the last kill still runs the election it began then: the restarted ones begin at
     * round 1, it is rounds ahead.
     */
    static final MutationScenario SET_KILL_MAJORITY = new MutationScenario("set", "kill-majority", 3,
            Duration.ofSeconds(95), S5, Duration.ofSeconds(20), Duration.ofSeconds(25), Duration.ofSeconds(60));

    /**
     * The leader of 5 SIGSTOPped, ten times, for 3 s: its four followers each notice at their own timeout (up to
     * 200 ms apart) and elect, so three of them can agree before the fourth votes.
     */
    static final MutationScenario SET_PAUSE_LEADER_5 = new MutationScenario("set", "pause-leader", 5,
            Duration.ofSeconds(60), Duration.ofSeconds(3), Duration.ofSeconds(3), Duration.ofSeconds(10),
            Duration.ofSeconds(30));

    /** A seeded random sequence of every fault (kills of one, a majority, all; pauses; partitions; slowness). */
    static final MutationScenario SET_MIXED = new MutationScenario("set", "mixed", 3,
            Duration.ofSeconds(60), S5, S5, Duration.ofSeconds(25), Duration.ofSeconds(60));

    /** A random node SIGKILLed and restarted at the heal, six times: each restart syncs while clients write. */
    static final MutationScenario SET_KILL_RANDOM = new MutationScenario("set", "kill-random", 3,
            Duration.ofSeconds(60), S5, S5, Duration.ofSeconds(10), Duration.ofSeconds(30));

    /**
     * A random node SIGSTOPped for 20 s, three times: a leader, or a follower whose connections stay open. Longer
     * than the availability bound (10 s by default), so that writes held up behind one member are a stall.
     */
    static final MutationScenario SET_PAUSE_RANDOM = new MutationScenario("set", "pause-random", 3,
            Duration.ofSeconds(75), Duration.ofSeconds(20), S5, Duration.ofSeconds(10), Duration.ofSeconds(30));

    private static final String ZAB_HIDES_ELECTIONS = " ZAB hides it from every client: a server that decided to "
            + "follow a server that does not lead cannot sync with it and elects again, and a leader serves only "
            + "once a quorum has synced with it — so no client sees two leaders of one epoch or loses a write; the "
            + "mistake costs an election round.";

    private MutationMatrix() {
    }

    /** Every row, in order: the full matrix ({@code ./zkchaos mutations}, the chaos profile). */
    public static List<Mutation> full() {
        List<Mutation> all = new java.util.ArrayList<>(byClients());
        all.addAll(byServersAccount());
        return List.copyOf(all);
    }

    /** The rows that what the clients saw catches (or that a correct build passes). */
    private static List<Mutation> byClients() {
        return List.of(
                new Mutation(List.of("commit-before-quorum"), SET_ISOLATE_LEADER, Expect.CAUGHT,
                        "the isolated leader acknowledges adds no follower has; the majority's leader never had them "
                                + "(no-lost-commit)"),
                new Mutation(List.of("commit-before-quorum"), REGISTER_ISOLATE_LEADER, Expect.RARE,
                        "rare on a register: the isolated leader's acknowledged writes vanish, but a register "
                                + "forgets — a lost write that the majority's concurrent writes overwrite is "
                                + "linearizable as written-then-overwritten; only a read that orders it (or a "
                                + "read-log of the old leader in the second before it steps down) shows it. The set "
                                + "remembers every element: the row above catches it every time."),
                new Mutation(List.of("ack-before-durable"), SET_KILL_ALL, Expect.CAUGHT,
                        "adds acknowledged within the hold before the crash were never written (no-lost-commit)"),
                new Mutation(List.of("ack-before-durable"), SET_KILL_MAJORITY, Expect.RARE,
                        "rare under kill-majority: the killed majority loses what it acknowledged in the last second, "
                                + "but the survivor holds it, writes it within the hold and, having the newest zxid, "
                                + "is elected when the majority restarts; the write is lost only when the two "
                                + "restarted nodes elect without the survivor (it is down by then — killed in the next "
                                + "cycle — or its vote comes late). kill-all, above, loses it every time."),
                new Mutation(List.of("elect-without-zxid"), SET_MIXED, Expect.RARE,
                        "rare: votes without zxids let the server with the highest id win even when it lacks "
                                + "committed proposals; ZAB's discovery fence makes it step back (a follower's "
                                + "ACKEPOCH shows it behind) and it wins again, round after round — no leader while it "
                                + "is up, which single-leader's failover bound sees (fle ElectWithoutZxidTest: 5 "
                                + "servers at 1.9, 1.9, 1.9, 1.8, 1.8 with 1 and 2 down). It needs the highest id to "
                                + "fall behind within an epoch and then meet an election, and the nemeses seldom set "
                                + "that up: this build elects the highest id whenever it takes part, so it is rarely "
                                + "a follower; a follower killed or cut off rejoins its leader without an election; "
                                + "the followers of a killed leader hold the same proposals; kill-majority kills in "
                                + "id order, so the highest id is killed last and is never behind."),
                new Mutation(List.of("elect-without-zxid", "no-epoch-fencing"), SET_MIXED, Expect.RARE,
                        "alone, no-epoch-fencing gets no occasion: with a correct election the elected server's "
                                + "history is at least as recent as any quorum member's, so the fences it removes "
                                + "(new epoch = max over a quorum + 1, a follower refusing an older epoch, a leader "
                                + "stepping back from a follower ahead of it) act only after a race no scenario here "
                                + "has made (fle NoEpochFencingTest shows the mistake). elect-without-zxid is the "
                                + "election mistake that gives them work: it elects the highest id even when it lacks "
                                + "committed proposals, and the fence that masks it alone (a follower's ACKEPOCH "
                                + "shows it behind) is the one this flag removes, so the new leader truncates a "
                                + "committed write (no-lost-commit)."),
                new Mutation(List.of("no-finalize-wait"), SET_PAUSE_LEADER_5, Expect.MASKED,
                        "masked: deciding on the first quorum that agrees, two servers decide different leaders in "
                                + "one round when one vote is late (fle NoFinalizeWaitTest). Here three of the paused "
                                + "leader's four followers can agree before the fourth, better one votes: they notice "
                                + "the pause at their own timeouts. (With 3 nodes the two survivors of a leader fault "
                                + "are the whole quorum, and no vote can come after it.)" + ZAB_HIDES_ELECTIONS),
                new Mutation(List.of("mix-election-epochs"), SET_KILL_MAJORITY, Expect.MASKED,
                        "masked: a stale vote of an earlier round completes a quorum, so one server decides to follow "
                                + "a dead server while another leads (fle MixElectionEpochsTest). Here the restarted "
                                + "majority begins at round 1 while the survivor is rounds ahead: its round-1 votes "
                                + "change the survivor's proposal or fill its quorum. (After a kill-leader the "
                                + "survivors elect in one round and the restarted leader joins them as they lead.)"
                                + ZAB_HIDES_ELECTIONS));
    }

    /**
     * The rows that only the servers' own account catches: the checker kinds {@code server:error},
     * {@code server:crash} / {@code server:crash-loop} and {@code availability:stall} read the nodes' logs, their
     * exits and the probe's writes, not the clients' results. Each note starts with the checker kind that catches it.
     */
    static List<Mutation> byServersAccount() {
        return List.of(
                new Mutation(List.of("throw-on-early-commit"), SET_KILL_RANDOM, Expect.CAUGHT,
                        "server:error: a restarted node syncs with the leader while clients write; a COMMIT that "
                                + "reaches it between NEWLEADER and UPTODATE (legal: the leader forwards commits as "
                                + "soon as it sent the sync) makes it throw IllegalStateException out of its handler, "
                                + "logged with its stack trace; it goes back to LOOKING and rejoins, so the clients "
                                + "see at most a short unavailability of one node (fle ThrowOnEarlyCommitTest, "
                                + "UnderGeneralFaultsTest)"),
                new Mutation(List.of("exit-on-trunc"), SET_ISOLATE_LEADER, Expect.CAUGHT,
                        "server:crash (server:crash-loop if restarted): the isolated leader logs writes its clients "
                                + "still send and no follower has; at the heal the new leader tells it to TRUNC them "
                                + "and it ends its process with exit code 5, which no nemesis did — and again at "
                                + "every restart, its log unchanged (fle ExitOnTruncTest, ExitOnTruncIT)"),
                new Mutation(List.of("commit-on-all-acks"), SET_PAUSE_RANDOM, Expect.CAUGHT,
                        "availability:stall: a paused follower keeps its connections open, and the leader waits for "
                                + "its ACK: no write is acknowledged for the whole pause while the leader and the "
                                + "other follower, a majority, are up and connected (the pause excuses the paused "
                                + "node, not the others) (fle CommitOnAllAcksTest, CommitOnAllAcksIT)"));
    }

    /**
     * The rows of the integration test ({@code mvn verify}, a few minutes): the bugs every run catches, one
     * scenario each.
     */
    public static List<Mutation> quick() {
        // exit-on-trunc shares set × isolate-leader but needs the cut leader to hold a proposal it must truncate,
        // which one seed in a few misses: not a row every run catches
        return byClients().stream().filter(m -> m.scenario() == SET_ISOLATE_LEADER && m.expect() == Expect.CAUGHT
                || m.scenario() == SET_KILL_ALL).toList();
    }

    /** A run's time beyond its main phase and recovery (three node JVMs started and stopped, the check): a guess. */
    private static final Duration RUN_OVERHEAD = Duration.ofSeconds(10);

    /**
     * {@code shard}'s share of {@code rows}, in their order ({@code --shard K/N}). A scenario goes whole to one share,
     * with every row in it, since {@link MutationRunner} runs the correct build once per scenario; it is expected to
     * take a run per row and one for the correct build, each its main phase, its recovery and
     * {@link #RUN_OVERHEAD}.
     */
    public static List<Mutation> share(List<Mutation> rows, Shard shard) {
        List<MutationScenario> scenarios = rows.stream().map(Mutation::scenario).distinct().toList();
        Set<MutationScenario> mine = Set.copyOf(shard.select(scenarios, MutationScenario::label,
                s -> (rows.stream().filter(m -> m.scenario().equals(s)).count() + 1)
                        * s.timeLimit().plus(s.recover()).plus(RUN_OVERHEAD).toMillis() / 1000.0));
        return rows.stream().filter(m -> mine.contains(m.scenario())).toList();
    }
}
