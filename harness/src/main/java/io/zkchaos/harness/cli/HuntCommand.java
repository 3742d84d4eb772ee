package io.zkchaos.harness.cli;

import io.zkchaos.checkers.DurationText;
import io.zkchaos.harness.hunt.Hunt;
import io.zkchaos.harness.hunt.HuntRow;
import io.zkchaos.harness.hunt.HuntTable;
import io.zkchaos.harness.hunt.HuntTally;
import io.zkchaos.harness.shrink.Trials;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code zkchaos bench hunt}: runs rows of run configurations in turn for a time budget and prints, per row, the
 * runs, their verdicts, the findings by kind and findings per hour ({@link Hunt}).
 */
@Command(name = "hunt", description = "Run rows of run configurations in turn for a time budget; print runs, "
        + "findings by kind and findings per hour per row.")
final class HuntCommand implements Callable<Integer> {

    static final String DEFAULT_ROWS = "/io/zkchaos/harness/hunt/default-rows.txt";

    @Option(names = "--rows", paramLabel = "FILE", description = "the rows: one line of ./zkchaos run arguments a "
            + "row, without --seed and --out (default: the built-in blind table, 54 rows: 3.4.14 to 3.9.5 under mixed, "
            + "compound faults, disk faults, replaced disks, ACLs and session churn)")
    Path rows;

    @Option(names = "--budget", defaultValue = "1h", converter = Durations.class,
            description = "how long to go on starting runs; every row runs once at least (default: ${DEFAULT-VALUE})")
    Duration budget;

    @Option(names = "--seed", defaultValue = "1", description = "the first run's seed; each run the next "
            + "(default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--out", required = true, description = "where the run directories and hunt.tsv go (bench's "
            + "--out DIR gives DIR/hunt)")
    Path out;

    private final PrintWriter stdout;

    HuntCommand(PrintWriter stdout) {
        this.stdout = stdout;
    }

    /**
     * Runs {@code bench hunt ARGS}.
     *
     * @throws IllegalArgumentException naming what is wrong in the arguments or the rows
     */
    static void run(String[] args, PrintWriter stdout) throws Exception {
        HuntCommand c = new HuntCommand(stdout);
        try {
            new CommandLine(c).parseArgs(args);
        } catch (CommandLine.ParameterException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        c.call();
    }

    @Override
    public Integer call() throws Exception {
        List<HuntRow> parsed = rows == null ? HuntRow.parse(defaultRows(), "the built-in rows")
                : HuntRow.parse(read(rows), rows.toString());
        Hunt hunt = new Hunt(parsed, budget, seed, out);
        stdout.println("hunt: " + parsed.size() + " row(s), budget " + DurationText.format(budget) + ", first seed "
                + seed + ", runs under " + out);
        stdout.flush();
        List<HuntTally> tallies = hunt.run(RunCommand::configOf, Trials.real(stdout), stdout, System::nanoTime);
        stdout.println();
        HuntTable.print(stdout, tallies);
        Path table = out.resolve("hunt.tsv");
        HuntTable.write(table, tallies);
        stdout.println("table written to " + table);
        stdout.flush();
        return 0;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException("--rows " + file + ": cannot read it (" + e.getMessage() + ")", e);
        }
    }

    static String defaultRows() {
        try (InputStream in = HuntCommand.class.getResourceAsStream(DEFAULT_ROWS)) {
            if (in == null) {
                throw new IllegalStateException(DEFAULT_ROWS + " is missing from the harness's resources");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + DEFAULT_ROWS + ": " + e.getMessage(), e);
        }
    }
}
