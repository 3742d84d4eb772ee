package io.zkchaos.fle;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The known mistakes a node can be built with, one flag each. The correct build has none. What each one changes, and
 * what it should make visible, is in {@code docs/fle.md}.
 */
public enum Bug {

    /** FLE orders votes by (peer epoch, SID) only: a server missing committed writes can win an election. */
    ELECT_WITHOUT_ZXID("elect-without-zxid"),

    /**
     * ZAB discovery without its fences: the prospective leader takes its own acceptedEpoch + 1 as the new epoch
     * instead of the maximum over a quorum + 1, a follower accepts a new epoch below its acceptedEpoch, and the
     * prospective leader goes on when a follower's ACKEPOCH shows a more recent history than its own (and truncates
     * it).
     */
    NO_EPOCH_FENCING("no-epoch-fencing"),

    /** A proposal is ACKed at once and written to the log file only later, so a SIGKILL in between loses it. */
    ACK_BEFORE_DURABLE("ack-before-durable"),

    /** The leader commits a proposal on its own ACK, without waiting for a quorum. */
    COMMIT_BEFORE_QUORUM("commit-before-quorum"),

    /** FLE decides on the first quorum that agrees, without waiting {@code finalizeWait} for a better vote. */
    NO_FINALIZE_WAIT("no-finalize-wait"),

    /**
     * FLE counts votes from earlier election rounds (logical clocks) together with the current round's: a notification
     * of an older round is handled like one of the current round, the received votes are kept when the server moves
     * to a newer round, and votes are compared without their round.
     */
    MIX_ELECTION_EPOCHS("mix-election-epochs"),

    /**
     * A follower takes a COMMIT that arrives after NEWLEADER but before UPTODATE for a protocol violation and throws
     * {@link IllegalStateException} out of its message handler (it expects commits only once it serves), where the
     * correct follower applies it. The order is legal: a follower that syncs with an established leader is sent the
     * commits of writes made while its ACK of NEWLEADER is on its way. The exception ends the following, logged with
     * its stack trace, and the server goes back to LOOKING and rejoins.
     */
    THROW_ON_EARLY_COMMIT("throw-on-early-commit"),

    /**
     * A follower told to TRUNC (it holds proposals the new leader does not have: never committed, so to be dropped)
     * takes it for a log it cannot repair, logs an error and ends its process (exit code 5), as ZooKeeper's learner
     * does when its truncation fails, where the correct follower cuts its log back and syncs. A leader that lost its
     * quorum while clients were still writing to it rejoins with such proposals.
     */
    EXIT_ON_TRUNC("exit-on-trunc"),

    /**
     * The leader commits a proposal only once every synced follower (and itself) has ACKed it, not a quorum: one
     * follower that stalls while its connection stays open (paused, say) stalls every write, though a majority is up
     * and connected. A follower whose connection closes no longer counts.
     */
    COMMIT_ON_ALL_ACKS("commit-on-all-acks");

    private final String flag;

    Bug(String flag) {
        this.flag = flag;
    }

    /** The name a command line takes, e.g. {@code elect-without-zxid}. */
    public String flag() {
        return flag;
    }

    /** Parses a flag name (case-insensitive; underscores are taken as dashes). */
    public static Bug parse(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT).replace('_', '-');
        for (Bug b : values()) {
            if (b.flag.equals(n)) {
                return b;
            }
        }
        throw new IllegalArgumentException("unknown bug '" + name + "': known bugs are "
                + Arrays.stream(values()).map(Bug::flag).collect(Collectors.joining(", ")));
    }

    @Override
    public String toString() {
        return flag;
    }
}
