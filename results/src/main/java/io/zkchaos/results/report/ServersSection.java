package io.zkchaos.results.report;

import io.zkchaos.checkers.servers.ServerEvent;
import io.zkchaos.results.RunDirectory;
import java.util.ArrayList;
import java.util.List;

/**
 * The page's "What the servers said", besides the tables of the cards that judge the servers' own account
 * ({@link CheckerCard#inServersSection()}): what the run directory lacks for it, and the server processes' starts and
 * exits as {@code servers.jsonl} recorded them. A run recorded before any of these existed still renders: {@code
 * missing} says what is not there.
 *
 * @param missing        what is missing and what that means, one sentence each
 * @param processes      the processes' starts and exits, in time order; at most {@value Cards#MAX_ROWS}
 * @param processesMore  how many more servers.jsonl holds
 * @param processSummary the starts and exits counted ({@code 4 starts, 2 exits (1 by itself)}), or empty when
 *                       servers.jsonl was not recorded
 * @param charted        whether "Who led when" marks any of it on the servers' lanes (then the page explains the
 *                       marks)
 */
public record ServersSection(List<String> missing, List<ProcessRow> processes, int processesMore,
                             String processSummary, boolean charted) {

    public ServersSection {
        missing = List.copyOf(missing);
        processes = List.copyOf(processes);
    }

    /**
     * A server process started or exited.
     *
     * @param by   {@code by itself} (a crash), {@code the nemesis (kill)}, {@code the harness}
     * @param exit its exit, or empty for a start
     */
    public record ProcessRow(String node, String at, String what, String by, String exit, boolean crash) {
    }

    static ServersSection of(RunFiles files, List<CheckerCard> cards, boolean hasTimes) {
        List<CheckerCard> shown = cards.stream().filter(CheckerCard::inServersSection).toList();
        List<String> missing = new ArrayList<>();
        if (files.results() != null) {
            if (shown.stream().noneMatch(c -> c.servers() != null)) {
                missing.add(RunDirectory.RESULTS + " has no server checker's findings: the servers' logs, crashes "
                        + "and rejoin loops were not judged (the run was checked before zk-chaos read them).");
            }
            if (shown.stream().noneMatch(c -> c.availability() != null)) {
                missing.add(RunDirectory.RESULTS + " has no availability checker's findings: no stall was looked "
                        + "for (the run was checked before zk-chaos probed each server, or without probes).");
            }
        } else {
            missing.add("No " + RunDirectory.RESULTS + ": the servers' account was not judged.");
        }
        if (!files.serverEventsRecorded()) {
            missing.add("No " + RunDirectory.SERVERS + ": the server processes' starts and exits were not recorded "
                    + "(a run made before the harness watched them, or a history checked with check --report).");
        }
        if (!hasTimes) {
            missing.add("This history has no times: the servers' account cannot be placed on the chart.");
        }
        List<ProcessRow> rows = new ArrayList<>();
        int starts = 0;
        int exits = 0;
        int crashes = 0;
        for (ServerEvent e : files.serverEvents()) {
            if (e.kind() == ServerEvent.Kind.CLOCK) {
                continue;
            }
            boolean start = e.kind() == ServerEvent.Kind.STARTED;
            starts += start ? 1 : 0;
            exits += start ? 0 : 1;
            crashes += e.endedByItself() ? 1 : 0;
            if (rows.size() < Cards.MAX_ROWS) {
                rows.add(new ProcessRow(e.node(), Fmt.at(e.timeNanos()), start ? "started" : "exited", by(e),
                        start ? "" : Cards.exit(e.exitCode(), e.signal()), e.endedByItself()));
            }
        }
        String summary = files.serverEventsRecorded() ? Fmt.count(starts) + " starts, " + Fmt.count(exits)
                + " exits (" + Fmt.count(crashes) + " by itself)" : "";
        boolean charted = hasTimes && (!shown.isEmpty() || !files.serverEvents().isEmpty());
        return new ServersSection(missing, rows, starts + exits - rows.size(), summary, charted);
    }

    /** Who made an event happen, in words. */
    static String by(ServerEvent e) {
        if (e.by() == null) {
            return e.kind() == ServerEvent.Kind.EXITED ? "by itself" : "";
        }
        return e.by().equals(ServerEvent.BY_NEMESIS) && e.fault() != null ? "the nemesis (" + e.fault() + ")"
                : "the " + e.by();
    }
}
