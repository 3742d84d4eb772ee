package io.zkchaos.checkers.set;

import java.util.List;

/**
 * An acknowledged add missing from a final read that began after it was acknowledged.
 *
 * @param value       the element
 * @param process     the process that added it
 * @param invokeIndex history index of the add's invoke
 * @param ackIndex    history index of its ok
 * @param invokeNanos time of the invoke, -1 if unknown
 * @param ackNanos    time of the ok, -1 if unknown
 * @param lackingIn   the final reads (servers, or {@code process N} for reads that name no server) that lack it
 */
public record LostValue(Object value, int process, long invokeIndex, long ackIndex, long invokeNanos, long ackNanos,
                        List<String> lackingIn) {
}
