package io.zkchaos.harness.hunt;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** A hunt's tallies as a table for people and as tab-separated values for tools. */
public final class HuntTable {

    private HuntTable() {
    }

    /** The table: a line per row, then the totals. */
    public static void print(PrintWriter out, List<HuntTally> tallies) {
        int width = Math.max(3, tallies.stream().mapToInt(t -> t.row().label().length()).max().orElse(3));
        String format = "%-" + width + "s  %4s  %5s  %7s  %7s  %5s  %10s  %s%n";
        out.printf(Locale.ROOT, format, "row", "runs", "valid", "invalid", "unknown", "error", "findings/h",
                "findings by kind");
        int runs = 0;
        int invalid = 0;
        long millis = 0;
        for (HuntTally t : tallies) {
            out.printf(Locale.ROOT, format, t.row().label(), t.runs(), t.valid(), t.invalid(), t.unknown(),
                    t.errors(), String.format(Locale.ROOT, "%.1f", t.findingsPerHour()), t.kindsText());
            runs += t.runs();
            invalid += t.invalid();
            millis += t.time().toMillis();
        }
        out.printf(Locale.ROOT, "%d runs in %.1f min, %d with a finding (a finding counts only in an INVALID run that "
                + "met its evidence minimum)%n", runs, millis / 60_000.0, invalid);
        out.flush();
    }

    /** The same as tab-separated values with a header line, to {@code file}. */
    public static void write(Path file, List<HuntTally> tallies) {
        StringBuilder b = new StringBuilder("row\truns\tvalid\tinvalid\tunknown\terror\tseconds\tfindings_per_hour"
                + "\tfindings\n");
        for (HuntTally t : tallies) {
            b.append(String.join("\t", t.row().label(), Integer.toString(t.runs()), Integer.toString(t.valid()),
                    Integer.toString(t.invalid()), Integer.toString(t.unknown()), Integer.toString(t.errors()),
                    Long.toString(t.time().toSeconds()),
                    String.format(Locale.ROOT, "%.2f", t.findingsPerHour()), t.kindsText())).append('\n');
        }
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, b.toString(), StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new UncheckedIOException("cannot write the hunt's table to " + file + ": " + e.getMessage(), e);
        }
    }
}
