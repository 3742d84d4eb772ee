package io.zkchaos.harness.mutation;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/**
 * The mutation matrix as a table, for people: one row per bug × scenario (and the correct build in each scenario),
 * with the seeds, the verdict, how many runs the checkers judged invalid, how often the bug's code path ran, and what
 * they said — as text for the terminal and as Markdown for files, each with {@link #LEGEND} under it.
 */
public final class MutationTable {

    /** What the verdicts mean, printed under the table. */
    public static final String LEGEND = "caught: a checker judged a run invalid. masked: no run invalid, and the "
            + "bug's code path ran (the nodes counted it) in runs judged valid: the mistake happened and no client "
            + "could see it. not triggered: its code path never ran in a valid run, so the runs tested nothing. "
            + "code path ran: over the row's runs (each run's in brackets). Required: a visible bug caught at least "
            + "once, any other caught or masked, the correct build valid in every run.";

    private MutationTable() {
    }

    /** Plain text: fixed columns, what the checkers said last (it is long). */
    public static void print(List<MutationRow> rows, PrintWriter out) {
        String format = "%-24s %-29s %-6s %-16s %-8s %-18s %s%n";
        out.printf(format, "bug", "scenario (workload × nemesis)", "seeds", "verdict", "invalid", "code path ran",
                "what the checkers said");
        for (MutationRow r : rows) {
            out.printf(Locale.ROOT, format, r.bugLabel(), r.scenario().label(), r.seeds(), r.verdict(),
                    r.caught() + "/" + r.runs().size(), r.codePaths(), r.said());
        }
        out.println();
        out.println(LEGEND);
        out.flush();
    }

    /** Markdown: the same columns, and under the table how to re-run each scenario by hand. */
    public static String markdown(List<MutationRow> rows) {
        StringBuilder b = new StringBuilder();
        b.append("| bug | scenario | seeds | verdict | invalid | code path ran | what the checkers said |\n");
        b.append("| --- | --- | --- | --- | --- | --- | --- |\n");
        for (MutationRow r : rows) {
            b.append("| ").append(cell(r.bugLabel())).append(" | ").append(cell(r.scenario().label()))
                    .append(" | ").append(r.seeds()).append(" | ").append(r.verdict()).append(" | ")
                    .append(r.caught()).append('/').append(r.runs().size()).append(" | ").append(cell(r.codePaths()))
                    .append(" | ").append(cell(r.said())).append(" |\n");
        }
        b.append('\n').append(LEGEND).append('\n');
        b.append("\nEach row again by hand (first seed):\n\n```\n");
        for (MutationRow r : rows) {
            if (!r.runs().isEmpty()) {
                b.append(r.scenario().command(r.correctBuild() ? List.of() : r.mutation().bugs(),
                        r.runs().get(0).seed())).append('\n');
            }
        }
        b.append("```\n");
        return b.toString();
    }

    private static String cell(String s) {
        return s.replace("|", "\\|").replace("\n", " ");
    }
}
