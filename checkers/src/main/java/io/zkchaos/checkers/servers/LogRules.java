package io.zkchaos.checkers.servers;

import io.zkchaos.checkers.servers.LogRule.Verdict;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Collectors;

/**
 * What the lines of a server's log mean, as data: which exceptions are programming errors, which are expected under
 * faults, which are excused with a written reason, and which lines say that a learner syncs with a leader or that a
 * server serves. The rules shipped are {@value #BUILT_IN} (read it: its header says the format); a user's file is
 * read the same way and its rules come first.
 *
 * <h2>How an entry is judged</h2>
 * An entry with an exception (a stack trace, or an exception named in its message) is judged by its cause chain,
 * root cause first: the first rule, in order, whose class names the root cause (or is {@code *}) and whose pattern
 * is found in the entry's text decides; when none does, the same for the exception that wraps it, and so on out.
 * Then an entry that "gives up" ({@code Severe unrecoverable error}) with a {@code NullPointerException} as its
 * cause is an error, and with an {@code IOException} it is expected. An exception that no rule names is
 * {@link Verdict#OTHER}. An entry without an exception is named by the first rule with class {@code -} whose pattern
 * is found in its message, else by none.
 *
 * <p>Immutable and safe to share between threads.
 */
public final class LogRules {

    /** The rules shipped, a resource beside this class. */
    public static final String BUILT_IN = "server-log-rules.tsv";
    private static final Pattern CLASS = Pattern.compile("[a-zA-Z_$][\\w$]*(?:\\.[a-zA-Z_$][\\w$]*)*");
    /** JDK classes by name, loaded (never initialised) to know their superclasses; empty when not a JDK class. */
    private static final Map<String, Optional<Class<?>>> JDK = new ConcurrentHashMap<>();

    private final List<LogRule> rules;

    private LogRules(List<LogRule> rules) {
        this.rules = List.copyOf(rules);
    }

    /** The rules shipped. */
    public static LogRules builtIn() {
        try (InputStream in = LogRules.class.getResourceAsStream(BUILT_IN)) {
            if (in == null) {
                throw new IllegalStateException("the built-in rules " + BUILT_IN + " are missing from the classpath");
            }
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return new LogRules(parse(BUILT_IN, text.lines().toList()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the built-in rules " + BUILT_IN, e);
        }
    }

    /**
     * A user's rules, then the built-in ones.
     *
     * @throws IllegalArgumentException naming the file and line of a rule that cannot be read
     * @throws UncheckedIOException     naming the file when it cannot be read
     */
    public static LogRules withUserFile(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the log rules file " + file + ": " + e, e);
        }
        return builtIn().after(parse(file.toString(), lines));
    }

    /** {@code first}, then these rules. */
    public LogRules after(List<LogRule> first) {
        List<LogRule> all = new ArrayList<>(first);
        all.addAll(rules);
        return new LogRules(all);
    }

    /** The rules in the order they are tried. */
    public List<LogRule> rules() {
        return rules;
    }

    /**
     * Reads rules written in the format of {@value #BUILT_IN}: one a line, four fields separated by tabs
     * ({@code pattern}, {@code class}, {@code verdict}, {@code why}); {@code #} starts a comment line; blank lines are
     * skipped.
     *
     * @param source the file's name, for errors and for each rule's {@link LogRule#source()}
     * @throws IllegalArgumentException {@code FILE line N: ...} naming what is wrong with the first bad line
     */
    public static List<LogRule> parse(String source, List<String> lines) {
        List<LogRule> rules = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank() || line.stripLeading().startsWith("#")) {
                continue;
            }
            String where = source + " line " + (i + 1);
            String[] f = line.split("\t", -1);
            if (f.length != 4) {
                throw new IllegalArgumentException(where + ": expected 4 fields separated by tabs (pattern, class, "
                        + "verdict, why), found " + f.length + ": " + line);
            }
            String patternText = f[0].strip();
            String className = f[1].strip();
            String why = f[3].strip();
            Pattern pattern;
            try {
                pattern = patternText.equals("*") || patternText.isEmpty() ? null : Pattern.compile(patternText);
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException(where + ": the pattern is no regular expression: "
                        + e.getDescription() + " in " + patternText, e);
            }
            if (!className.equals(LogRule.ANY) && !className.equals(LogRule.NONE)
                    && !CLASS.matcher(className).matches()) {
                throw new IllegalArgumentException(where + ": the class must be *, - or a class name, found '"
                        + className + "'");
            }
            Verdict verdict = Arrays.stream(Verdict.values()).filter(v -> v.word().equals(f[2].strip()))
                    .findFirst().orElseThrow(() -> new IllegalArgumentException(where + ": unknown verdict '"
                            + f[2].strip() + "' (one of " + Arrays.stream(Verdict.values()).map(Verdict::word)
                            .collect(Collectors.joining(", ")) + ")"));
            if (verdict.marksState() && !className.equals(LogRule.NONE)) {
                throw new IllegalArgumentException(where + ": a " + verdict.word() + " rule names a line, not an "
                        + "exception: its class must be -");
            }
            if (verdict.marksState() && pattern == null) {
                throw new IllegalArgumentException(where + ": a " + verdict.word() + " rule needs a pattern");
            }
            if (className.equals(LogRule.NONE) && pattern == null) {
                throw new IllegalArgumentException(where + ": a rule for lines without an exception needs a "
                        + "pattern (else it names every line)");
            }
            if (why.isEmpty()) {
                throw new IllegalArgumentException(where + ": the why is empty: say in one line why "
                        + (verdict == Verdict.EXCUSED ? "it is excused (its root cause)" : "this is " + verdict.word()));
            }
            rules.add(new LogRule(pattern, className, verdict, why, source + ":" + (i + 1)));
        }
        return rules;
    }

    /**
     * What one entry is.
     *
     * @param verdict   the rule's verdict, or {@link Verdict#OTHER} for an exception no rule names
     * @param rule      the rule that decided, or null
     * @param chain     the exception's cause chain, outermost first (empty for a line without one)
     * @param signature its signature: of its exception, or of the rule that named a line without one; null for a
     *                  state line
     */
    public record Judged(Verdict verdict, LogRule rule, List<Thrown> chain, Signature signature) {
    }

    /**
     * Judges an entry, as the class comment says.
     *
     * @return what it is, or empty for an entry without an exception that no rule names
     */
    public Optional<Judged> judge(LogLine entry) {
        List<Thrown> chain = Thrown.chainOf(entry);
        if (chain.isEmpty()) {
            for (LogRule r : rules) {
                if (r.className().equals(LogRule.NONE) && r.matchesText(entry.message())) {
                    return Optional.of(new Judged(r.verdict(), r, chain,
                            r.verdict().marksState() ? null : Signature.ofLine(r.pattern().pattern())));
                }
            }
            return Optional.empty();
        }
        Signature signature = Signature.of(chain);
        StringBuilder all = new StringBuilder(entry.message());
        for (Thrown t : chain) {
            all.append('\n').append(t.className()).append(": ").append(t.message());
        }
        String text = all.append('\n').append(signature.key()).toString();
        for (int i = chain.size() - 1; i >= 0; i--) {
            String cls = chain.get(i).className();
            for (LogRule r : rules) {
                if (!r.className().equals(LogRule.NONE) && names(r.className(), cls) && r.matchesText(text)) {
                    return Optional.of(new Judged(r.verdict(), r, chain, signature));
                }
            }
        }
        return Optional.of(new Judged(Verdict.OTHER, null, chain, signature));
    }

    /** Whether a rule's class names {@code thrown}: any, the same name, the same simple name, a JDK superclass. */
    static boolean names(String ruleClass, String thrown) {
        if (ruleClass.equals(LogRule.ANY) || ruleClass.equals(thrown)) {
            return true;
        }
        if (ruleClass.indexOf('.') < 0) {
            return thrown.substring(thrown.lastIndexOf('.') + 1).equals(ruleClass);
        }
        Optional<Class<?>> rule = jdk(ruleClass);
        Optional<Class<?>> t = jdk(thrown);
        return rule.isPresent() && t.isPresent() && rule.get().isAssignableFrom(t.get());
    }

    /** A JDK class by name, without initialising it; empty for another class (its hierarchy is not known here). */
    private static Optional<Class<?>> jdk(String name) {
        if (!name.startsWith("java.") && !name.startsWith("javax.")) {
            return Optional.empty();
        }
        return JDK.computeIfAbsent(name, n -> {
            try {
                return Optional.of(Class.forName(n, false, ClassLoader.getPlatformClassLoader()));
            } catch (ClassNotFoundException | LinkageError e) {
                return Optional.empty();
            }
        });
    }
}
