package io.zkchaos.results.report;

import io.zkchaos.checkers.evidence.ExerciseText;
import io.zkchaos.results.RunDirectory;
import java.util.ArrayList;
import java.util.List;

/**
 * What happened in a run, in a few lines for a terminal: the faults the nemesis really made (with the nodes and
 * times), who the servers said led, how the client operations ended, and what the run exercised. The same figures
 * as the report's header, from the same files ({@link RunFiles}), so the terminal and the page never disagree.
 */
public final class RunStory {

    /** At most this many faults are listed one by one; the rest are counted. */
    static final int MAX_FAULTS = 8;

    private RunStory() {
    }

    /**
     * The lines, without indentation, for a finished run (its history, and if written its cluster, results and
     * evidence).
     */
    public static List<String> of(RunDirectory dir) {
        RunFiles files = RunFiles.read(dir);
        RunPage page = RunPages.build(files);
        List<String> lines = new ArrayList<>();
        List<FaultWindow> faults = page.faults();
        if (faults.isEmpty()) {
            lines.add("faults: none");
        } else {
            lines.add("faults: " + faults.size());
            for (FaultWindow f : faults.subList(0, Math.min(MAX_FAULTS, faults.size()))) {
                lines.add("  " + f.startAt() + "  " + f.label() + (f.failed() ? ""
                        : f.healed() ? " (for " + f.length() + ")" : " (still in force at the end)"));
            }
            if (faults.size() > MAX_FAULTS) {
                lines.add("  ... and " + (faults.size() - MAX_FAULTS) + " more (see the report)");
            }
        }
        for (CheckerCard.Fact fact : page.facts()) {
            if (List.of("ZooKeeper leaders", "client operations", "processes", "history span")
                    .contains(fact.name())) {
                lines.add(fact.name() + ": " + fact.value());
            }
        }
        files.evidence().ifPresent(e -> lines.add("exercised: " + ExerciseText.summary(e.exercised())));
        return lines;
    }
}
