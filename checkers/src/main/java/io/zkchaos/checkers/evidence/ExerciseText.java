package io.zkchaos.checkers.evidence;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** What a run exercised, in words for a terminal and a test failure. */
public final class ExerciseText {

    private ExerciseText() {
    }

    /** One sentence: {@code 412 client operations acknowledged (210 while a fault was in force, ...); 2 faults applied}. */
    public static String summary(Exercised run) {
        OpCounts all = run.clients(Phase.ALL);
        StringBuilder s = new StringBuilder();
        s.append(all.ok()).append(" of ").append(all.total()).append(" client operations acknowledged (")
                .append(run.clients(Phase.UNDER_FAULT).ok()).append(" while a fault was in force, ")
                .append(run.clients(Phase.AFTER_HEAL).ok()).append(" after the final heal)");
        if (run.faultsAttempted() > 0) {
            s.append("; ").append(run.faultsApplied()).append(" of ").append(run.faultsAttempted())
                    .append(" fault starts applied");
            if (run.faultsFelt() < run.faultsApplied()) {
                s.append(", ").append(run.faultsFelt()).append(" felt");
            }
        }
        long armed = run.faults().stream().mapToLong(FaultTally::triggersArmed).sum();
        if (armed > 0) {
            s.append("; protocol triggers fired ").append(run.faults().stream().mapToLong(FaultTally::triggersFired)
                    .sum()).append(" of ").append(armed).append(" armed");
        }
        return s.toString();
    }

    /** The lines of the run's "exercised" paragraph, without indentation. */
    public static List<String> lines(Exercised run) {
        List<String> lines = new ArrayList<>();
        lines.add("operations: " + (run.functions().isEmpty() ? "none"
                : run.functions().stream().map(t -> t.f() + " " + t.all()).collect(Collectors.joining(", "))));
        lines.add("  while a fault was in force: " + run.clients(Phase.UNDER_FAULT) + "; after the final heal: "
                + (run.finalHeal() ? run.clients(Phase.AFTER_HEAL).toString() : "no final heal recorded"));
        if (!run.harness().isEmpty()) {
            lines.add("  harness reads: " + join(run.harness()));
        }
        if (run.faults().isEmpty()) {
            lines.add("faults: none attempted");
        } else {
            for (FaultTally f : run.faults()) {
                StringBuilder s = new StringBuilder("fault ").append(f.fault()).append(": applied ").append(f.applied())
                        .append(" of ").append(f.attempted());
                if (f.applied() > 0) {
                    if (f.felt() < f.applied()) {
                        s.append(", felt ").append(f.felt()).append(" (not: ").append(String.join("; ",
                                f.unfelt().subList(0, Math.min(2, f.unfelt().size()))))
                                .append(f.unfelt().size() > 2 ? "; ..." : "").append(')');
                    }
                    s.append(", ").append(f.okUnder()).append(" operations acknowledged under it");
                }
                if (f.triggersArmed() > 0) {
                    s.append(", triggers fired ").append(f.triggersFired()).append(" of ").append(f.triggersArmed());
                }
                if (f.couldNotAct() > 0) {
                    s.append(", could not act ").append(f.couldNotAct());
                }
                if (f.failed() > 0) {
                    s.append(", failed ").append(f.failed());
                }
                if (!f.reasons().isEmpty()) {
                    s.append(" (").append(String.join("; ", f.reasons().subList(0, Math.min(2, f.reasons().size()))))
                            .append(f.reasons().size() > 2 ? "; ..." : "").append(')');
                }
                lines.add(s.toString());
            }
        }
        List<String> seen = new ArrayList<>();
        if (!run.quorumSyncs().isEmpty()) {
            seen.add("quorum syncs " + join(run.quorumSyncs()));
        }
        if (run.leaderChanges() >= 0) {
            seen.add("leader changes " + run.leaderChanges());
        }
        seen.add("client processes retired " + run.retiredProcesses());
        if (!run.bugCodePaths().isEmpty()) {
            seen.add("bug code paths ran: " + join(run.bugCodePaths()));
        }
        lines.add(String.join("; ", seen));
        run.promises().forEach((checker, tallies) -> lines.add(promises(checker, tallies)));
        return lines;
    }

    /** {@code promises of watches: data-changed 12, persistent 0 (not judged)}. */
    public static String promises(String checker, List<PromiseTally> tallies) {
        return "promises of " + checker + ": " + (tallies.isEmpty() ? "none" : tallies.stream()
                .map(t -> t.id() + " " + t.tested() + (t.wasTested() ? "" : " (not judged)"))
                .collect(Collectors.joining(", ")));
    }

    private static String join(Map<String, ?> m) {
        return m.entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", "));
    }
}
