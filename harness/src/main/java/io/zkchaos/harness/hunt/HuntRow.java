package io.zkchaos.harness.hunt;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One row of a bug hunt: a run configuration as {@code ./zkchaos run} arguments (release, workload, nemesis, options),
 * run again and again with a new seed each time.
 *
 * @param args the {@code run} arguments, without {@code --seed} and {@code --out} (the hunt gives those)
 */
public record HuntRow(List<String> args) {

    /** The options the hunt sets on every run itself. */
    private static final List<String> HUNT_OWNED = List.of("--seed", "--out");

    public HuntRow {
        args = List.copyOf(args);
        if (args.isEmpty()) {
            throw new IllegalArgumentException("a hunt row needs run arguments (--workload W --nemesis N ...)");
        }
        for (String a : args) {
            String name = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
            if (HUNT_OWNED.contains(name)) {
                throw new IllegalArgumentException("a hunt row must not set " + name + " (the hunt gives every run "
                        + "its own seed and run directory): " + String.join(" ", args));
            }
        }
    }

    /** The row as people read it: its arguments. */
    public String label() {
        return String.join(" ", args);
    }

    /** This row's arguments for one run. */
    public List<String> argsFor(long seed, java.nio.file.Path out) {
        List<String> all = new ArrayList<>(args);
        all.addAll(List.of("--seed", Long.toString(seed), "--out", out.toString()));
        return all;
    }

    /**
     * Rows from text: one a line, the {@code run} arguments separated by blanks; blank lines and lines starting with
     * {@code #} are skipped.
     *
     * @throws IllegalArgumentException naming the line that is wrong, or when no row is left
     */
    public static List<HuntRow> parse(String text, String source) {
        List<HuntRow> rows = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            try {
                rows.add(new HuntRow(Arrays.asList(line.split("\\s+"))));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(source + " line " + (i + 1) + ": " + e.getMessage(), e);
            }
        }
        if (rows.isEmpty()) {
            throw new IllegalArgumentException(source + " has no row (one line of run arguments a row)");
        }
        return rows;
    }
}
