package io.zkchaos.checkers.history;

import java.util.Objects;

/**
 * One history entry: an invocation or a completion, exactly as a process saw it.
 *
 * <p>Values are plain data so that histories survive JSON and EDN round trips: {@code null}, {@link Long},
 * {@link Double}, {@link java.math.BigInteger}, {@link String}, {@link Boolean}, {@link java.util.List} and
 * {@link java.util.Map} of those. Codecs normalise every integer to {@code Long} so that equal numbers are equal
 * values. EDN keywords inside values become strings without the colon.
 *
 * @param index   position in the history, 0-based; unique and increasing
 * @param process the logical client process, or {@link #NEMESIS}
 * @param type    invoke, ok, fail or info
 * @param f       the function, e.g. {@code read}, {@code write}, {@code cas}
 * @param key     the key the operation is on, or null when the history is not keyed
 * @param value   the operation's value (for an invoke, its argument; for a completion, its result)
 * @param error   why it failed or is indeterminate, or null
 * @param time    nanoseconds since the start of the run; -1 when the source had no times
 */
public record Op(long index, int process, OpType type, String f, String key, Object value, String error, long time) {

    /** The process number of the nemesis: its actions are history entries too. */
    public static final int NEMESIS = -1;

    public Op {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(f, "f");
    }

    public boolean isNemesis() {
        return process == NEMESIS;
    }

    public static Op invoke(long index, int process, String f, String key, Object value, long time) {
        return new Op(index, process, OpType.INVOKE, f, key, value, null, time);
    }
}
