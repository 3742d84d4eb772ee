package io.zkchaos.checkers.bench;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The options of a benchmark's {@code main}: {@code --name value} pairs, each name one the benchmark knows. The
 * benchmarks are run through {@code ./zkchaos bench WHAT ARGS...}, which hands them their arguments as they were
 * typed; a wrong option is an {@link IllegalArgumentException} naming it and the known ones (the CLI prints it).
 */
public final class BenchOptions {

    private final Map<String, String> values;

    private BenchOptions(Map<String, String> values) {
        this.values = values;
    }

    /**
     * @param args  the arguments, {@code --name value} pairs
     * @param known every option name the benchmark takes (with its dashes)
     * @throws IllegalArgumentException for an unknown option or an option without its value
     */
    public static BenchOptions parse(String[] args, String... known) {
        List<String> names = List.of(known);
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (!names.contains(a)) {
                throw new IllegalArgumentException("unknown option " + a + " (known: " + String.join(", ", names)
                        + ")");
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("option " + a + " needs a value");
            }
            values.put(a, args[++i]);
        }
        return new BenchOptions(values);
    }

    /** The value of {@code name} converted by {@code convert}, or {@code otherwise} when it was not given. */
    public <T> T get(String name, Function<String, T> convert, T otherwise) {
        String v = values.get(name);
        if (v == null) {
            return otherwise;
        }
        try {
            return convert.apply(v);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("option " + name + ": cannot read '" + v + "' (" + e.getMessage()
                    + ")", e);
        }
    }

    public int intValue(String name, int otherwise) {
        return get(name, Integer::parseInt, otherwise);
    }

    public long longValue(String name, long otherwise) {
        return get(name, Long::parseLong, otherwise);
    }

    /** A path, or null when it was not given. */
    public Path path(String name) {
        return get(name, Path::of, null);
    }

    /** A text, or {@code otherwise} when it was not given. */
    public String text(String name, String otherwise) {
        return get(name, Function.identity(), otherwise);
    }
}
