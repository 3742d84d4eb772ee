package io.zkchaos.results;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The store of runs, as Jepsen's {@code store/}: {@code <root>/<scenario>/<start time>/}, with a {@code latest}
 * link per scenario and one for the whole store pointing at the newest run.
 */
public final class RunStore {

    private static final DateTimeFormatter STAMP =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSS'Z'").withZone(ZoneOffset.UTC);
    private static final Pattern SAFE_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._+-]*");

    private final Path root;

    public RunStore(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    public Path root() {
        return root;
    }

    /**
     * Creates the directory of a new run of {@code scenario} started at {@code start} and points the
     * {@code latest} links at it.
     *
     * @throws IllegalArgumentException if the scenario name is not a safe file name
     */
    public RunDirectory create(String scenario, Instant start) {
        if (scenario == null || !SAFE_NAME.matcher(scenario).matches()) {
            throw new IllegalArgumentException("scenario name '" + scenario
                    + "' must be letters, digits, '.', '_', '+' or '-' (it names a directory)");
        }
        Path scenarioDir = RunDirectory.createDirectories(root.resolve(scenario));
        String stamp = STAMP.format(start);
        Path dir = scenarioDir.resolve(stamp);
        for (int i = 1; Files.exists(dir); i++) {
            dir = scenarioDir.resolve(stamp + "-" + i);
        }
        RunDirectory run = new RunDirectory(RunDirectory.createDirectories(dir));
        relink(scenarioDir.resolve("latest"), scenarioDir.relativize(dir));
        relink(root.resolve("latest"), root.relativize(dir));
        return run;
    }

    /** Every run in the store, oldest first. */
    public List<RunDirectory> runs() {
        List<RunDirectory> runs = new ArrayList<>();
        if (!Files.isDirectory(root)) {
            return runs;
        }
        try (Stream<Path> scenarios = Files.list(root)) {
            for (Path scenario : scenarios.filter(p -> Files.isDirectory(p) && !Files.isSymbolicLink(p)).toList()) {
                try (Stream<Path> dirs = Files.list(scenario)) {
                    dirs.filter(p -> Files.isDirectory(p) && !Files.isSymbolicLink(p))
                            .map(RunDirectory::new)
                            .forEach(runs::add);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list runs in " + root + ": " + e.getMessage(), e);
        }
        runs.sort(Comparator.comparing(r -> r.path().getFileName().toString()));
        return runs;
    }

    /**
     * Every run directory (a directory holding a history) at or below {@code dir}, up to three levels down, not
     * following links (so {@code latest} is not listed twice), in path order: a store, one scenario of it, or a
     * directory that {@code check --report} filled.
     */
    public static List<RunDirectory> find(Path dir) {
        List<RunDirectory> runs = new ArrayList<>();
        try (Stream<Path> all = Files.walk(dir, 3)) {
            all.filter(p -> Files.isDirectory(p, java.nio.file.LinkOption.NOFOLLOW_LINKS))
                    .filter(p -> Files.isRegularFile(p.resolve(RunDirectory.HISTORY)))
                    .sorted()
                    .map(RunDirectory::new)
                    .forEach(runs::add);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list runs in " + dir + ": " + e.getMessage(), e);
        }
        return runs;
    }

    private static void relink(Path link, Path target) {
        try {
            Files.deleteIfExists(link);
            Files.createSymbolicLink(link, target);
        } catch (IOException | UnsupportedOperationException e) {
            // A missing convenience link loses nothing: the run directory itself is complete.
        }
    }
}
