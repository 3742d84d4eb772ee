package io.zkchaos.fle.zab;

import io.zkchaos.fle.Zxid;
import java.util.List;

/** The messages of ZAB between a leader and a follower, on the quorum port (SPEC §5.3). */
public sealed interface QuorumMessage {

    MessageKind kind();

    record FollowerInfo(long sid, long acceptedEpoch, boolean wantSnap) implements QuorumMessage {
        @Override
        public MessageKind kind() {
            return MessageKind.FOLLOWERINFO;
        }
    }

    record LeaderInfo(long newEpoch) implements QuorumMessage {
        @Override
        public MessageKind kind() {
            return MessageKind.LEADERINFO;
        }
    }

    record AckEpoch(long currentEpoch, long lastZxid) implements QuorumMessage {
        @Override
        public MessageKind kind() {
            return MessageKind.ACKEPOCH;
        }
    }

    record Diff(long afterZxid) implements QuorumMessage {
        @Override
        public MessageKind kind() {
            return MessageKind.DIFF;
        }
    }

    record Trunc(long toZxid) implements QuorumMessage {
        @Override
        public MessageKind kind() {
            return MessageKind.TRUNC;
        }
    }

    record Snap(List<Entry> history) implements QuorumMessage {
        public Snap {
            history = List.copyOf(history);
        }

        @Override
        public MessageKind kind() {
            return MessageKind.SNAP;
        }

        @Override
        public String toString() {
            return "Snap[" + history.size() + " entries]";
        }
    }

    record Proposal(Entry entry) implements QuorumMessage {
        @Override
        public MessageKind kind() {
            return MessageKind.PROPOSAL;
        }
    }

    record Commit(long zxid) implements QuorumMessage {
        @Override
        public MessageKind kind() {
            return MessageKind.COMMIT;
        }

        @Override
        public String toString() {
            return "Commit[" + Zxid.show(zxid) + "]";
        }
    }

    /** @param lastZxid the last zxid the synchronisation sent (the follower's history ends there) */
    record NewLeader(long epoch, long lastZxid) implements QuorumMessage {
        @Override
        public MessageKind kind() {
            return MessageKind.NEWLEADER;
        }
    }

    /** @param lastZxid the follower's last logged zxid, durably */
    record AckNewLeader(long epoch, long lastZxid) implements QuorumMessage {
        @Override
        public MessageKind kind() {
            return MessageKind.ACKNEWLEADER;
        }
    }

    record Ack(long zxid) implements QuorumMessage {
        @Override
        public MessageKind kind() {
            return MessageKind.ACK;
        }

        @Override
        public String toString() {
            return "Ack[" + Zxid.show(zxid) + "]";
        }
    }

    record UpToDate(long committedZxid) implements QuorumMessage {
        @Override
        public MessageKind kind() {
            return MessageKind.UPTODATE;
        }
    }

    record Ping() implements QuorumMessage {
        @Override
        public MessageKind kind() {
            return MessageKind.PING;
        }
    }

    record Request(Origin origin, Txn txn) implements QuorumMessage {
        @Override
        public MessageKind kind() {
            return MessageKind.REQUEST;
        }
    }
}
