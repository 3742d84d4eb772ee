package io.zkchaos.nemesis.faults;

import io.zkchaos.nemesis.Choices;
import io.zkchaos.nemesis.FaultRecord;
import io.zkchaos.nemesis.NemesisTarget;
import io.zkchaos.nemesis.NodeControl;

import io.zkchaos.nemesis.frame.FrameMoment;
import io.zkchaos.nemesis.frame.FrameProtocol;
import io.zkchaos.nemesis.frame.FrameTaps;
import io.zkchaos.nemesis.frame.FrameTrigger;
import io.zkchaos.nemesis.frame.TriggerRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The faults at moments of a protocol: frame triggers armed on the target's tapped links
 * ({@link NemesisTarget#requireFrames()}, see {@code io.zkchaos.nemesis.frame}), then a sync provoked so that the
 * moment comes. Every method acts, then returns what it did as a {@link FaultRecord}; every choice (the moment, the
 * victim, the provocation) goes through the target's {@link Choices}, as for the other families, and every start's
 * record and trigger are named for the fault being run. They act at moments of the quorum protocol of faults of
 * {@link io.zkchaos.nemesis.Fault.Family#CRASH}; {@link #disarmSyncFault} undoes them.
 *
 * <p>Not thread-safe: one nemesis drives one cluster.
 */
public final class SyncFaults {

    private final NodeControl cluster;
    private final Choices choices;
    private final NemesisTarget target;
    private final Acting actions;
    /** The fault being run: the name its records and triggers carry. */
    private final String fault;

    /** @param fault the fault being run: the name its records and frame triggers carry */
    public SyncFaults(NemesisTarget target, String fault) {
        this.actions = new Acting(target, fault);
        this.cluster = target.nodes();
        this.choices = target.choices();
        this.target = target;
        this.fault = fault;
    }

    /**
     * Arms a trigger that resets the connection right after a seeded moment of a sync (one of the protocol's
     * {@link FrameProtocol#syncMoments()}), then provokes a sync ({@link #provokeSync}). The trigger fires once;
     * {@link #disarmSyncFault} says what it did, or that it never fired (with a probe, as for a crash: a learner
     * whose sync was cut may hold in memory what it never wrote, which only a restart shows).
     */
    public FaultRecord cutDuringSync(Duration maxLag) {
        FrameTaps taps = target.requireFrames();
        FrameMoment m = moment(taps.protocol().syncMoments());
        FrameTrigger t = new FrameTrigger(fault, m.types(), m.phase(), 1, -1, FrameTrigger.Action.CUT,
                FrameTrigger.Victim.RECEIVER, Duration.ZERO, null);
        return armAndProvoke(taps, t, m, maxLag);
    }

    /**
     * Arms a trigger that, right after a seeded sync moment, holds the stream and SIGKILLs one end of it (seeded:
     * the receiver or the sender), which is started again on its data after a seeded delay of up to
     * {@code maxRestart}; then provokes a sync. At the end ({@link #disarmSyncFault} with a probe) the learner of
     * that sync is crash-restarted, so that what it claimed to have made durable is loaded from its disk.
     */
    public FaultRecord crashDuringSync(Duration maxLag, Duration maxDelay, Duration maxRestart) {
        FrameTaps taps = target.requireFrames();
        FrameMoment m = moment(taps.protocol().syncMoments());
        FrameTrigger.Victim victim = choices.coin("victim-receiver") ? FrameTrigger.Victim.RECEIVER
                : FrameTrigger.Victim.SENDER;
        // half the kills strike at once, the others a little later (the victim has handled the frame)
        Duration delay = choices.coin("kill-at-once") ? Duration.ZERO
                : Duration.ofMillis(actions.delayMillis(maxDelay));
        FrameTrigger t = new FrameTrigger(fault, m.types(), m.phase(), 1, -1, FrameTrigger.Action.KILL, victim,
                delay, Duration.ofMillis(actions.delayMillis(maxRestart)));
        return armAndProvoke(taps, t, m, maxLag);
    }

    /**
     * Arms a trigger that stalls the stream (the connection stays open, nothing more passes) after a seeded number of
     * bytes (up to {@code maxBodyBytes}) of a long frame's body (ZooKeeper: the snapshot of a {@code SNAP} sync),
     * then provokes a sync. A sync that sends no snapshot leaves it unfired, and its record says so.
     */
    public FaultRecord stallDuringBody(Duration maxLag, long maxBodyBytes) {
        FrameTaps taps = target.requireFrames();
        List<FrameMoment> bodies = taps.protocol().syncMoments().stream().filter(FrameMoment::body).toList();
        if (bodies.isEmpty()) {
            throw new IllegalStateException(taps.protocol().name() + " has no frame with a long body to stall in");
        }
        FrameMoment m = moment(bodies);
        long bytes = choices.upTo("body-bytes", maxBodyBytes);
        FrameTrigger t = new FrameTrigger(fault, m.types(), m.phase(), 1, bytes, FrameTrigger.Action.STALL,
                FrameTrigger.Victim.RECEIVER, Duration.ZERO, null);
        // a snapshot is sent to a follower that lags (or to any, when the run forces SNAP syncs)
        return armAndProvoke(taps, t, m, maxLag, true);
    }

    /**
     * Ends a protocol-aware fault: disarms its triggers (stalls released, paused nodes resumed), records what each
     * did or that it never fired; with {@code probe}, crash-restarts the learner of each sync a trigger hit; and
     * starts every node that is down.
     */
    public FaultRecord disarmSyncFault(boolean probe) {
        List<TriggerRecord> records = target.requireFrames().disarm(fault);
        List<String> steps = new ArrayList<>();
        List<String> acted = new ArrayList<>();
        for (TriggerRecord r : records) {
            steps.add(r.summary());
            if (probe && r.fired()) {
                // the node that opened the connection is the learner of that sync
                String learner = "upstream".equals(r.stream()) ? r.sender() : r.receiver();
                cluster.kill(learner);
                cluster.start(learner);
                steps.add("crash-restart the learner " + learner + " on its data");
                acted.add(learner);
            }
        }
        FaultRecord restarted = new CrashFaults(actions).restartDown();
        acted.addAll(restarted.nodes());
        if (!restarted.nodes().isEmpty()) {
            steps.add(restarted.description());
        }
        return new FaultRecord("heal", String.join("; ", steps), acted.stream().distinct().sorted().toList(),
                List.of(), new java.util.TreeMap<>(), records);
    }

    /** One of {@code moments}, drawn (or the one the action's aim names). */
    private FrameMoment moment(List<FrameMoment> moments) {
        return choices.one("moment", moments, FrameMoment::name);
    }

    private FaultRecord armAndProvoke(FrameTaps taps, FrameTrigger t, FrameMoment m, Duration maxLag) {
        return armAndProvoke(taps, t, m, maxLag, false);
    }

    private FaultRecord armAndProvoke(FrameTaps taps, FrameTrigger t, FrameMoment m, Duration maxLag,
                                      boolean lagOnly) {
        taps.arm(t, cluster);
        List<String> acted = new ArrayList<>();
        String provoked = provokeSync(taps, maxLag, acted, lagOnly);
        return new FaultRecord(t.fault(), "armed: " + t.description() + " (moment " + m.name() + "); provoked a "
                + "sync: " + provoked, acted, List.of(), new java.util.TreeMap<>());
    }

    /**
     * Makes a follower sync with its leader, one of four ways (seeded): restart a follower on its data after a
     * seeded lag of up to {@code maxLag} (clients write meanwhile, so it must catch up: DIFF, or SNAP when far
     * behind); restart the leader (every follower syncs with the next one, in a new epoch); drop a follower's
     * protocol connections, so it syncs again from its memory; or let a follower lag and bring it back together
     * with a crash-restart of the leader, so that it catches up in a new epoch.
     */
    private String provokeSync(FrameTaps taps, Duration maxLag, List<String> acted, boolean lagOnly) {
        Optional<String> leader = actions.leader();
        List<String> followers = new ArrayList<>(actions.running());
        leader.ifPresent(followers::remove);
        int how = lagOnly ? 0 : choices.below("provocation", 4);
        if (leader.isEmpty() || followers.isEmpty()) {
            how = 1;
        }
        switch (how) {
            case 0 -> {
                String f = actions.pick(followers);
                // lagging for the sync's sake: at least half the bound when only a lag will do
                long lag = lagOnly ? maxLag.toMillis() / 2 + actions.delayMillis(maxLag.dividedBy(2)) : actions.delayMillis(maxLag);
                cluster.kill(f);
                Acting.sleep(lag);
                cluster.start(f);
                acted.add(f);
                return "restarted follower " + f + " on its data after " + lag + " ms";
            }
            case 1 -> {
                String l = leader.orElseGet(() -> actions.pick(actions.running()));
                cluster.kill(l);
                cluster.start(l);
                acted.add(l);
                return "restarted " + (leader.isPresent() ? "the leader " : "") + l + " on its data";
            }
            case 2 -> {
                String f = actions.pick(followers);
                List<String> dropped = taps.dropConnections(f);
                acted.add(f);
                return "dropped the connections of follower " + f + " " + dropped;
            }
            default -> {
                // a lagging follower comes back while the leader changes: it syncs in a new epoch
                String f = actions.pick(followers);
                String l = leader.get();
                long lag = actions.delayMillis(maxLag);
                cluster.kill(f);
                Acting.sleep(lag);
                cluster.kill(l);
                cluster.start(f);
                cluster.start(l);
                acted.add(f);
                acted.add(l);
                return "restarted follower " + f + " after " + lag + " ms together with the leader " + l;
            }
        }
    }
}
