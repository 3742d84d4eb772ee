package io.zkchaos.checkers.history;

/**
 * A history that cannot be read or does not obey the invoke/complete discipline. The message names where
 * (source, line when known, op index) and why, so a user can fix the file.
 */
public class MalformedHistoryException extends RuntimeException {

    private final long opIndex;

    public MalformedHistoryException(String message, long opIndex) {
        super(message);
        this.opIndex = opIndex;
    }

    public MalformedHistoryException(String message, long opIndex, Throwable cause) {
        super(message, cause);
        this.opIndex = opIndex;
    }

    /** The history index of the offending entry, or -1 when the problem is not one entry. */
    public long opIndex() {
        return opIndex;
    }
}
