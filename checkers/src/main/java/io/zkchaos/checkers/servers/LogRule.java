package io.zkchaos.checkers.servers;

import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One line of a log rules file ({@link LogRules}): which log entries it names and what they are.
 *
 * @param pattern   a regular expression found in the entry's text (its message, each exception's
 *                  {@code class: message}, its signature), or null for any text
 * @param className {@link #ANY} for any exception, {@link #NONE} for an entry without one, else an exception class:
 *                  its full name ({@code java.io.IOException}, {@code a.b.Outer$Inner}) or its simple name; a JDK
 *                  class ({@code java.}, {@code javax.}) also names its JDK subclasses
 * @param verdict   what the entries it names are
 * @param why       one line of why, shown beside each entry it names (required for {@link Verdict#EXCUSED})
 * @param source    where it was written: {@code server-log-rules.tsv:14}
 */
public record LogRule(Pattern pattern, String className, Verdict verdict, String why, String source) {

    /** The class column's word for "any exception". */
    public static final String ANY = "*";
    /** The class column's word for "a line without an exception". */
    public static final String NONE = "-";

    public LogRule {
        Objects.requireNonNull(className, "className");
        Objects.requireNonNull(verdict, "verdict");
        why = why == null ? "" : why;
    }

    /** What a rule says of the entries it names. */
    public enum Verdict {
        /** A programming error in the server: a finding ({@code server:error}). */
        ERROR,
        /** Expected under faults (I/O, the network, an interrupted thread): counted, never a finding. */
        EXPECTED,
        /** A signature whose cause is written down in the rule's why: shown as excused with it, not a finding. */
        EXCUSED,
        /** Neither known bad nor known harmless: counted and shown, not a finding. */
        OTHER,
        /** Not an exception: the line says a learner starts syncing with a leader (for rejoin loops). */
        SYNC,
        /** Not an exception: the line says the server serves (a synced follower or observer, or a leader). */
        SERVING;

        /** As the rules file and the report write it: {@code error}, {@code expected} ... */
        public String word() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** Whether it marks a state line rather than judging an exception. */
        public boolean marksState() {
            return this == SYNC || this == SERVING;
        }
    }

    /** Whether its pattern is found in {@code text} (a rule without a pattern names any text). */
    public boolean matchesText(String text) {
        return pattern == null || pattern.matcher(text).find();
    }

    /** The rule as a person reads it: {@code error NullPointerException (server-log-rules.tsv:14)}. */
    public String describe() {
        return verdict.word() + " " + className + (pattern == null ? "" : " /" + pattern.pattern() + "/")
                + " (" + source + ")";
    }
}
