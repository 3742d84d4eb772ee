package io.zkchaos.checkers.multi;

import java.util.List;

/**
 * A read that breaks what ZooKeeper promises of reads (it sees transactions whole, and its own session's), found
 * apart from the linearizability search of the transactions.
 *
 * @param rule    {@code aborted-read} (a value only a failed transaction wrote), {@code unwritten-read} (a value no
 *                transaction wrote), {@code fractured-read} (part of a transaction's effects and, on another znode,
 *                what it had already replaced), {@code own-write} (a value older than the session's own last transaction on that
 *                znode), or {@code unwritten-disagree} (a znode no transaction writes read with
 *                two values)
 * @param text    what happened, for people, naming the operations by process and history index
 * @param indices the history indices involved (the read's invoke, the transaction's invoke)
 */
public record MultiViolation(String rule, String text, List<Long> indices) {

    public MultiViolation {
        indices = List.copyOf(indices);
    }
}
