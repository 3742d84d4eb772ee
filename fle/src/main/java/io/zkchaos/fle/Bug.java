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
    MIX_ELECTION_EPOCHS("mix-election-epochs");

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
