package io.zkchaos.harness.shrink;

import io.zkchaos.checkers.Validity;
import io.zkchaos.harness.run.config.RunConfig;
import io.zkchaos.results.Json;
import io.zkchaos.results.RunDirectory;
import io.zkchaos.results.Verdicts;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;

/**
 * Runs one configuration and schedule again and again, and says how often the original finding came back: a seed
 * alone does not reproduce a run of real processes (their timing differs), so reproduction is a rate.
 */
public final class Replay {

    /** Where a run's replays go, under its directory. */
    public static final String DIRECTORY = "replays";

    /** The summary file a replay writes into its directory. */
    public static final String SUMMARY = "replay.json";

    /**
     * One replay.
     *
     * @param number      its number, from 1
     * @param directory   its run directory, or null when the run could not be made
     * @param report      its report, or null
     * @param outcome     its verdict and findings, in words
     * @param sameVerdict whether its verdict is the original's
     * @param reproduced  whether it found one of the original's kinds of finding, having exercised enough
     * @param kinds       its kinds of finding
     */
    public record Entry(int number, Path directory, Path report, String outcome, boolean sameVerdict,
                        boolean reproduced, SortedSet<String> kinds) {
    }

    /**
     * What the replays came to.
     *
     * @param original    the run replayed (or a description of the configuration)
     * @param verdict     the original verdict, in words
     * @param findings    the original kinds of finding
     * @param times       how many replays ran
     * @param sameVerdict how many had the original verdict
     * @param reproduced  how many found one of the original kinds of finding
     * @param recurred    per kind of finding, in how many replays it came back (other kinds too)
     * @param runs        every replay
     */
    public record Summary(String original, String verdict, SortedSet<String> findings, int times, int sameVerdict,
                          int reproduced, SortedMap<String, Integer> recurred, List<Entry> runs) {

        /** "2 of 3". */
        public String rate() {
            return reproduced + " of " + times;
        }
    }

    private Replay() {
    }

    /**
     * Runs {@code config} {@code times} times and compares each run with the original.
     *
     * @param original what was found, in words, and the verdict and findings to compare with
     * @param out      where each replay's line and the summary are printed as they come
     */
    public static Summary run(String original, Validity verdict, Set<String> findings, RunConfig config, int times,
                              Trials trials, PrintWriter out) throws InterruptedException {
        if (times < 1) {
            throw new IllegalArgumentException("times must be at least 1, got " + times);
        }
        List<Entry> entries = new ArrayList<>();
        SortedMap<String, Integer> recurred = new TreeMap<>();
        int same = 0;
        int reproduced = 0;
        for (int i = 1; i <= times; i++) {
            TrialRun r = trials.run(config);
            boolean isSame = r.verdict() == verdict && (verdict != Validity.INVALID || r.exercisedEnough());
            boolean found = r.reproduces(findings);
            same += isSame ? 1 : 0;
            reproduced += found ? 1 : 0;
            if (r.exercisedEnough()) {
                r.kinds().forEach(k -> recurred.merge(k, 1, Integer::sum));
            }
            Path report = r.directory() == null ? null : new RunDirectory(r.directory()).reportFile();
            Entry e = new Entry(i, r.directory(), report != null && Files.isRegularFile(report) ? report : null,
                    r.outcome(), isSame, found, r.kinds());
            entries.add(e);
            out.println(String.format("  %d/%d %s%s", i, times, e.outcome(), e.report() == null
                    ? e.directory() == null ? "" : "  " + e.directory() : "  " + e.report().toUri()));
            out.flush();
        }
        Summary s = new Summary(original, Verdicts.word(verdict), new java.util.TreeSet<>(findings), times, same,
                reproduced, recurred, entries);
        out.println("the original verdict (" + Verdicts.word(verdict) + ") came back in " + same + " of " + times
                + " run(s)" + (findings.isEmpty() ? "" : "; its finding (" + String.join(", ", findings) + ") in "
                + s.rate()));
        if (!recurred.isEmpty()) {
            List<String> each = new ArrayList<>();
            // not "new": shrink's confirming replays compare with the kinds it kept, which may be fewer than the run's
            recurred.forEach((k, n) -> each.add(k + " " + n + " of " + times + (findings.contains(k) ? ""
                    : " (other)")));
            out.println("findings that recurred: " + String.join(", ", each));
        }
        out.flush();
        return s;
    }

    /** Writes {@code summary} as {@link #SUMMARY} into {@code dir}. */
    public static Path write(Path dir, Summary summary) {
        Path file = dir.resolve(SUMMARY);
        Json.write(file, summary);
        return file;
    }

    /** The summary a replay left in {@code dir}, if any. */
    public static Optional<Summary> read(Path dir) {
        Path file = dir.resolve(SUMMARY);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            return Optional.of(Json.read(file, Summary.class));
        } catch (RuntimeException e) {
            return Optional.empty(); // a summary that cannot be read is as good as none: it is only shown
        }
    }
}
