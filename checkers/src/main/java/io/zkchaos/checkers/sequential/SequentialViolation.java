package io.zkchaos.checkers.sequential;

import java.util.List;

/**
 * One broken promise of sequential znodes.
 *
 * @param rule    which promise: {@code unique-name}, {@code order}, {@code lost}, {@code name-mismatch},
 *                {@code duplicate}, {@code phantom}
 * @param parent  the parent znode's key ({@code p0} ...)
 * @param text    what happened, for people, naming the operations by process and history index
 * @param indices the history indices of the entries involved (completions of creates, invokes of reads)
 */
public record SequentialViolation(String rule, String parent, String text, List<Long> indices) {

    public SequentialViolation {
        indices = List.copyOf(indices);
    }
}
