package io.zkchaos.checkers.history;

import java.util.Locale;

/** The four kinds of history entry, as in Jepsen. */
public enum OpType {
    /** A process started an operation. */
    INVOKE,
    /** The operation certainly took effect. */
    OK,
    /** The operation certainly did not take effect. */
    FAIL,
    /** Unknown whether it took effect (timeout, connection loss): it may have, at any time after its invoke. */
    INFO;

    /** The lower-case name used in JSON Lines and EDN ({@code invoke}, {@code ok}, ...). */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses a wire name; returns null for an unknown one so callers can report it with its line. */
    public static OpType fromWireName(String name) {
        if (name == null) {
            return null;
        }
        return switch (name) {
            case "invoke" -> INVOKE;
            case "ok" -> OK;
            case "fail" -> FAIL;
            case "info" -> INFO;
            default -> null;
        };
    }

    public boolean isCompletion() {
        return this != INVOKE;
    }
}
