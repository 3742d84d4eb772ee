package io.zkchaos.results;

import com.fasterxml.jackson.databind.JsonNode;
import io.zkchaos.checkers.Validity;
import java.util.Locale;

/**
 * The one place that turns a verdict into words and an exit status, for every command ({@code check}, {@code run},
 * {@code report}) and every page (the run report, the suite index). A harness error (the run could not be done, a
 * file could not be read) is not a verdict and has its own status, so "violated", "undecided" and "broken" never
 * share a mark.
 */
public final class Verdicts {

    /** Exit statuses of the command line. */
    public static final class Exit {
        /** Every history is valid. */
        public static final int VALID = 0;
        /** Some history is invalid. */
        public static final int INVALID = 1;
        /** A file could not be read, a run could not be done, or the command line is wrong. */
        public static final int ERROR = 2;
        /** None is invalid but some verdict is unknown. */
        public static final int UNKNOWN = 3;

        private Exit() {
        }
    }

    private Verdicts() {
    }

    /** {@code valid}, or {@code INVALID} / {@code UNKNOWN}, shouted: they are what a person must look at. */
    public static String word(Validity v) {
        return switch (v) {
            case VALID -> "valid";
            case INVALID -> "INVALID";
            case UNKNOWN -> "UNKNOWN";
        };
    }

    /** The exit status a command returns for a verdict. */
    public static int exitStatus(Validity v) {
        return switch (v) {
            case VALID -> Exit.VALID;
            case INVALID -> Exit.INVALID;
            case UNKNOWN -> Exit.UNKNOWN;
        };
    }

    /**
     * One line for a person: {@code <subject>: <verdict> (<facts>)}, followed by {@code : <summary>} unless the
     * verdict is valid (a valid history needs no explanation on the one-line form).
     */
    public static String line(String subject, Validity v, String facts, String summary) {
        String line = subject + ": " + word(v) + (facts == null || facts.isEmpty() ? "" : " (" + facts + ")");
        return v == Validity.VALID || summary == null || summary.isEmpty() ? line : line + ": " + summary;
    }

    /**
     * The verdict of a saved results file's {@code valid} field: {@code true}, {@code false} or {@code "unknown"}
     * (see {@link ResultsFile}).
     *
     * @throws IllegalArgumentException for anything else
     */
    public static Validity fromJson(Object valid) {
        if (valid instanceof Boolean b) {
            return b ? Validity.VALID : Validity.INVALID;
        }
        if (valid instanceof String s && s.toLowerCase(Locale.ROOT).equals("unknown")) {
            return Validity.UNKNOWN;
        }
        throw new IllegalArgumentException("\"valid\" must be true, false or \"unknown\", got " + valid);
    }

    /** The same, for {@code valid} read as a tree ({@link RunDirectory#readResults()}). */
    public static Validity fromJson(JsonNode valid) {
        return fromJson(valid == null || valid.isNull() ? null : valid.isBoolean() ? (Object) valid.booleanValue()
                : valid.isTextual() ? valid.textValue() : valid);
    }
}
