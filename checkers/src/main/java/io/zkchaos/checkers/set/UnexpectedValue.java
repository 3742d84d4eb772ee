package io.zkchaos.checkers.set;

/**
 * A value a read returned that no add could have put there.
 *
 * @param value     the element
 * @param reason    {@code never added} (no add invoked it) or {@code add failed} (its only adds failed)
 * @param readIn    the server, or {@code process N}, whose read returned it
 * @param readIndex history index of that read's ok
 */
public record UnexpectedValue(Object value, String reason, String readIn, long readIndex) {
}
