package io.zkchaos.harness.cli;

import io.zkchaos.results.RunDirectory;
import io.zkchaos.results.RunStore;
import io.zkchaos.results.Verdicts;
import io.zkchaos.results.report.RunReport;
import io.zkchaos.results.report.SuiteIndex;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code zkchaos report DIR...}: renders reports again from saved files. A run directory gets its {@code index.html};
 * a directory of runs (a store, one scenario of it, a {@code check --report} directory) gets every run's report and
 * a suite index at {@code DIR/index.html}. With {@code --merge OUT}, the runs of every DIR (the stores of a suite run
 * in shards on several machines) get one suite index, {@code OUT/index.html}. Prints the path of each page written.
 */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = "Render the HTML report of run directories from their saved files (history.jsonl, "
                + "results.json, ...); for a directory of runs, also the suite index DIR/index.html.",
        footer = {"", "Exit status: 0 written, 2 a directory holds no run or a file could not be read."})
public final class ReportCommand implements Callable<Integer> {

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Parameters(paramLabel = "DIR", arity = "1..*", description = "Run directories, or directories of runs.")
    List<Path> dirs;

    @Option(names = "--merge", paramLabel = "OUT", description = "one suite index OUT/index.html over the runs of "
            + "every DIR (the stores of a sharded suite), instead of one index per DIR")
    Path merge;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (merge != null) {
            try {
                out.println(merge(merge, dirs));
                return Verdicts.Exit.VALID;
            } catch (RuntimeException e) {
                err.println("error: " + e.getMessage());
                return Verdicts.Exit.ERROR;
            } finally {
                out.flush();
            }
        }
        int status = Verdicts.Exit.VALID;
        for (Path dir : dirs) {
            try {
                out.println(render(dir));
            } catch (RuntimeException e) {
                err.println("error: " + dir + ": " + e.getMessage());
                status = Verdicts.Exit.ERROR;
            }
            out.flush();
        }
        return status;
    }

    /** Renders one directory; returns the page a person should open. */
    static Path render(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("not a directory");
        }
        RunDirectory run = new RunDirectory(dir);
        if (run.hasHistory()) {
            return RunReport.write(run);
        }
        if (Files.isRegularFile(run.configFile())) {
            throw new IllegalArgumentException("a run without " + RunDirectory.HISTORY + " (it stopped before its "
                    + "clients began: see its " + RunDirectory.NODES + "/ logs); there is no report to render");
        }
        List<RunDirectory> runs = runsIn(dir);
        renderEach(runs);
        return SuiteIndex.write(dir.resolve(RunDirectory.REPORT), "runs in " + dir.toAbsolutePath().normalize(),
                runs);
    }

    /**
     * Renders every run in or below each of {@code dirs} and one suite index over all of them at
     * {@code out/index.html}; a run found under two of the directories is listed once.
     *
     * @throws IllegalArgumentException naming a directory that is missing or holds no run
     */
    static Path merge(Path out, List<Path> dirs) {
        Map<Path, RunDirectory> runs = new TreeMap<>();
        for (Path dir : dirs) {
            try {
                if (!Files.isDirectory(dir)) {
                    throw new IllegalArgumentException("not a directory");
                }
                runsIn(dir).forEach(r -> runs.putIfAbsent(r.path().toAbsolutePath().normalize(), r));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(dir + ": " + e.getMessage(), e);
            }
        }
        renderEach(runs.values());
        return SuiteIndex.write(out.resolve(RunDirectory.REPORT), "runs in " + dirs.size() + " stores: "
                + dirs.stream().map(d -> d.toAbsolutePath().normalize().toString()).collect(Collectors.joining(", ")),
                List.copyOf(runs.values()));
    }

    /**
     * Every run directory in or below {@code dir}: those holding a history ({@link RunStore#find}), and those a run
     * left with its configuration and no history (its ensemble never served; the index lists it as not checked, so
     * that a suite's index still names every scenario it tried).
     */
    private static List<RunDirectory> runsIn(Path dir) {
        Map<Path, RunDirectory> runs = new TreeMap<>();
        RunStore.find(dir).forEach(r -> runs.put(r.path(), r));
        try (Stream<Path> all = Files.walk(dir, 3)) {
            all.filter(p -> Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS))
                    .filter(p -> Files.isRegularFile(p.resolve(RunDirectory.CONFIG)))
                    .forEach(p -> runs.putIfAbsent(p, new RunDirectory(p)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list runs in " + dir + ": " + e.getMessage(), e);
        }
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("no run directory (one holding " + RunDirectory.HISTORY
                    + ") in or below it");
        }
        return List.copyOf(runs.values());
    }

    /** Renders the report of every run that has a history (one without has nothing to draw). */
    private static void renderEach(Iterable<RunDirectory> runs) {
        for (RunDirectory r : runs) {
            if (r.hasHistory()) {
                RunReport.write(r);
            }
        }
    }
}
