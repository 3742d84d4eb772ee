package io.zkchaos.results.report;

import io.zkchaos.results.RunDirectory;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The page of a shrink: the original run and the smallest run that still found the same kind of thing, side by side
 * (faults, main phase, size, operations, time, how often each reproduced), then every step tried. Rendered from the
 * two run directories' saved files and what the shrink measured; self-contained like the run reports.
 */
public final class ShrinkReport {

    /**
     * One run of the comparison.
     *
     * @param title      {@code original} or {@code shrunk}
     * @param run        its verdict, operations, faults, history span and report link, as the suite index lists it
     * @param findings   its kinds of finding
     * @param faults     each fault with its times and nodes
     * @param mainPhase  the main phase, in words
     * @param size       nodes, clients, keys, in words
     * @param reproduced how often it reproduced when replayed ("2 of 3"), or how to measure it
     */
    public record Side(String title, SuiteIndex.Row run, String findings, List<String> faults, String mainPhase,
                       String size, String reproduced) {
    }

    /**
     * One candidate tried.
     *
     * @param number its number
     * @param move   what changed
     * @param tries  each try's outcome
     * @param kept   whether it reproduced
     */
    public record Step(int number, String move, List<String> tries, boolean kept) {
    }

    /**
     * The page.
     *
     * @param title    what was shrunk
     * @param headline the finding and what the shrink came to, in a sentence
     * @param schedule the smallest schedule's file, relative to the page
     */
    public record Page(String title, String headline, Side original, Side shrunk, List<Step> steps,
                       String schedule) {
    }

    private ShrinkReport() {
    }

    /** A side of the comparison for the run in {@code run}, linked relative to the page's directory. */
    public static Side side(Path pageDir, String title, RunDirectory run, String findings, List<String> faults,
                            String mainPhase, String size, String reproduced) {
        return new Side(title, SuiteIndex.row(pageDir.toAbsolutePath(), run), findings, faults, mainPhase, size,
                reproduced);
    }

    /** Writes {@code page} to {@code file}; returns it. */
    public static Path write(Path file, Page page) {
        return Templates.write(file, Templates.render("shrink.ftlh", Map.of("page", page)));
    }
}
