package io.zkchaos.fle.peer;

import io.zkchaos.fle.zab.Txn;

/** What a client can ask a server for. */
public sealed interface ClientRequest {

    /** A plain read from the server's applied state (sequentially consistent). */
    record Get(String key) implements ClientRequest {
    }

    /** A command through the leader and the log: put, cas or a linearizable read. */
    record Submit(Txn txn) implements ClientRequest {
    }

    /** The server's committed log, in zxid order. */
    record ReadLog() implements ClientRequest {
    }

    /** The server's state, answered in any state. */
    record Status() implements ClientRequest {
    }
}
