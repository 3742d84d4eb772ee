package io.zkchaos.checkers.set;

/**
 * The last successful read of one server (or, for reads that name no server, of one process).
 *
 * @param source      the server ({@code node} of the read's value) or {@code process N}
 * @param invokeIndex history index of the read's invoke: adds acknowledged before it must be in it
 * @param okIndex     history index of the read's ok
 * @param size        how many distinct elements it returned
 */
public record FinalRead(String source, long invokeIndex, long okIndex, int size) {
}
