package io.zkchaos.nemesis.faults;

import io.zkchaos.nemesis.Fault;
import io.zkchaos.nemesis.FaultRecord;
import io.zkchaos.nemesis.NemesisTarget;
import io.zkchaos.nemesis.NodeState;
import java.util.List;

/**
 * The faults of {@link Fault.Family#PAUSE}: nodes SIGSTOPped; undone by {@link #resumeAll}. Every start acts, then
 * returns what it did as a {@link FaultRecord} named for the fault being run.
 *
 * <p>Not thread-safe: one nemesis drives one cluster.
 */
public final class PauseFaults {

    private final Acting on;

    /** @param fault the fault being run: the name its records carry */
    public PauseFaults(NemesisTarget target, String fault) {
        this.on = new Acting(target, fault);
    }

    /** SIGSTOPs the leader. */
    public FaultRecord pauseLeader() {
        return on.onEachSeen("pause", List.of(on.requireLeader()), on.cluster::pause, NodeState.PAUSED);
    }

    /** SIGSTOPs a random running node. */
    public FaultRecord pauseRandom() {
        return on.onEachSeen("pause", List.of(on.pick(on.running())), on.cluster::pause, NodeState.PAUSED);
    }

    /** SIGCONTs every paused node: recorded as {@code resume}. */
    public FaultRecord resumeAll() {
        return Acting.onEachIndependently("resume", "resume", on.in(NodeState.PAUSED), on.cluster::resume);
    }
}
