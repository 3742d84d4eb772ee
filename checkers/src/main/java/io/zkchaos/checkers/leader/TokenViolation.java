package io.zkchaos.checkers.leader;

/**
 * A fencing-token violation between two leaderships.
 *
 * @param kind        {@code duplicate-token}, {@code duplicate-czxid} or {@code token-backwards}
 * @param earlier     the leadership acquired first
 * @param later       the leadership acquired afterwards
 * @param explanation what is wrong, in words
 */
public record TokenViolation(String kind, LeaderInterval earlier, LeaderInterval later, String explanation) {
}
