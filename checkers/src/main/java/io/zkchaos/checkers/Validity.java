package io.zkchaos.checkers;

/**
 * A checker's verdict. {@code UNKNOWN} means the checker could not decide (a budget ran out, or it broke) and is
 * never a guess. Verdicts merge by priority: invalid over unknown over valid.
 */
public enum Validity {
    VALID, INVALID, UNKNOWN;

    /** The merged verdict of two checkers over one history. */
    public Validity merge(Validity other) {
        if (this == INVALID || other == INVALID) {
            return INVALID;
        }
        if (this == UNKNOWN || other == UNKNOWN) {
            return UNKNOWN;
        }
        return VALID;
    }

    /** The JSON form used in results files: {@code true}, {@code false} or {@code "unknown"}. */
    public Object toJson() {
        return switch (this) {
            case VALID -> Boolean.TRUE;
            case INVALID -> Boolean.FALSE;
            case UNKNOWN -> "unknown";
        };
    }
}
