package io.zkchaos.fle.peer;

import io.zkchaos.fle.zab.Entry;
import java.util.List;

/** A server's answer to a {@link ClientRequest}. */
public sealed interface ClientReply {

    /** A read's value ({@code null}: the key is absent). */
    record Value(String value) implements ClientReply {
    }

    /** A write committed and applied at {@code zxid}; {@code value} is what the key now holds. */
    record Written(long zxid, String value) implements ClientReply {
    }

    record Log(List<Entry> entries) implements ClientReply {
        public Log {
            entries = List.copyOf(entries);
        }
    }

    record Status(PeerStatus status) implements ClientReply {
    }

    /** Certainly not done: the server does not serve, or a cas found another value. */
    record Rejected(String reason) implements ClientReply {
    }

    /** Unknown whether it was done: the server lost its leader (or stepped down) before it knew. */
    record Indeterminate(String reason) implements ClientReply {
    }
}
