package io.zkchaos.harness.shrink;

import io.zkchaos.harness.run.config.ClusterPart;
import io.zkchaos.harness.run.config.NemesisPart;
import io.zkchaos.harness.run.config.RunConfig;
import io.zkchaos.harness.run.config.Timing;
import io.zkchaos.harness.run.config.WorkloadPart;
import io.zkchaos.nemesis.Faults;
import io.zkchaos.nemesis.schedule.FaultSchedule;
import io.zkchaos.results.Json;
import io.zkchaos.results.RunDirectory;
import io.zkchaos.results.report.ShrinkReport;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.concurrent.TimeUnit;

/**
 * Shrinks a recorded run's finding with real runs ({@link Shrinker}), then writes what it came to into its directory:
 * the smallest schedule ({@code schedule.json}), every step ({@code shrink.json}), the runs ({@code runs/}), the
 * confirming replays of the smallest ({@code confirm/}) and the page that shows the original and the smallest side by
 * side ({@code index.html}).
 */
public final class Shrink {

    /** Where the shrink's runs go, under its directory. */
    static final String RUNS = "runs";
    static final String CONFIRM = "confirm";
    static final String STEPS = "shrink.json";

    /**
     * What the shrink came to.
     *
     * @param result    the shrinker's result
     * @param schedule  the smallest schedule's file
     * @param run       the run directory of the smallest candidate's reproducing try (null when none was kept)
     * @param report    the page
     * @param confirmed the replays of the smallest (null when not replayed)
     * @param millis    wall time of the shrink, replays included
     */
    public record Outcome(Shrinker.Result result, Path schedule, Path run, Path report, Replay.Summary confirmed,
                          long millis) {
    }

    /** A step, as {@code shrink.json} keeps it. */
    record StepFile(int number, String move, String candidate, List<String> tries, List<Path> runs, boolean kept) {
    }

    private Shrink() {
    }

    /**
     * @param original the run to shrink
     * @param findings the kinds of finding to keep (any one of them)
     * @param keep     how many of its tries must reproduce for a candidate to be kept
     * @param budget   the wall time it may take; the smallest found so far is the result once it is spent
     * @param confirm  how many times to replay the smallest at the end (0: not at all)
     * @param dir      where everything is written
     * @param out      where the steps are printed
     * @param log      where every run's progress lines go
     */
    public static Outcome run(RecordedRun original, Set<String> findings, Shrinker.KeepRate keep, Duration budget,
                              int confirm,
                              Path dir, PrintWriter out, PrintWriter log) throws InterruptedException {
        long t0 = System.nanoTime();
        long deadline = t0 + budget.toNanos();
        Trials trials = Trials.real(log);
        Path runs = dir.resolve(RUNS);
        Shrinker.Candidate start = original.candidate();
        out.println("shrink " + original.directory().path() + ": keep " + String.join(" or ", findings));
        out.println("  from: " + start.describe());
        out.println("  first with no fault at all; each candidate kept when " + keep.needed() + " of up to "
                + keep.tries() + " tries reproduce (--keep-rate " + keep + "); budget " + budget.toMinutes()
                + " min; runs in " + runs + " (their progress in " + dir.resolve(RunLog.FILE) + ")");
        out.flush();
        Shrinker shrinker = new Shrinker(c -> trials.run(sized(original.config(), c).withOut(runs)), findings, keep,
                () -> System.nanoTime() > deadline, rules(original.config()), step -> print(step, out));
        Shrinker.Result result = shrinker.shrink(start);

        Shrinker.Candidate smallest = result.smallest();
        Path schedule = dir.resolve(RunDirectory.SCHEDULE);
        Json.write(schedule, smallest.schedule());
        Json.write(dir.resolve(STEPS), result.steps().stream().map(s -> new StepFile(s.number(), s.move(),
                s.candidate().describe(), s.tries().stream().map(TrialRun::outcome).toList(), s.tries().stream()
                .map(TrialRun::directory).toList(), s.kept())).toList());
        out.println((result.budgetSpent() ? "budget spent" : "no move helped any more") + " after "
                + result.steps().size() + " step(s), " + result.steps().stream().mapToInt(s -> s.tries().size()).sum()
                + " run(s), " + minutes(System.nanoTime() - t0));
        out.println("smallest: " + smallest.describe());
        if (result.plainBug()) {
            out.println(Shrinker.Result.PLAIN_BUG);
        }
        out.flush();

        Replay.Summary confirmed = null;
        if (confirm > 0 && result.smallestRun() != null) {
            out.println("replaying the smallest " + confirm + " time(s):");
            Path confirmDir = dir.resolve(CONFIRM);
            confirmed = Replay.run("smallest of " + original.directory().path(), original.verdict(), findings,
                    sized(original.config(), smallest).withOut(confirmDir), confirm, trials, out);
            Replay.write(confirmDir, confirmed);
        }
        Path report = ShrinkReport.write(dir.resolve(RunDirectory.REPORT), page(original, result, confirmed, dir));
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        Path run = result.smallestRun() == null ? null : result.smallestRun().directory();
        out.println("  schedule: " + schedule);
        if (run != null) {
            out.println("  run:      " + run + " (./zkchaos replay takes it)");
        }
        out.println("  report:   " + report);
        out.println("took " + minutes(TimeUnit.MILLISECONDS.toNanos(millis)));
        out.flush();
        return new Outcome(result, schedule, run, report, confirmed, millis);
    }

    private static void print(Shrinker.Step s, PrintWriter out) {
        String tries = s.tries().size() + " tr" + (s.tries().size() == 1 ? "y" : "ies") + " (" + String.join("; ",
                s.tries().stream().map(TrialRun::outcome).toList()) + ")";
        out.println(String.format("  [%d] %s: %s", s.number(), s.move(), s.kept() ? "reproduced, kept after " + tries
                : "not kept after " + tries));
        out.flush();
    }

    /**
     * {@code base} resized to the candidate, its faults the candidate's schedule, its families those the run recorded;
     * a candidate with no fault runs as {@code --nemesis none} (a schedule of no fault would be held to the
     * nemesis's minimum, and never count).
     */
    static RunConfig sized(RunConfig base, Shrinker.Candidate c) {
        ClusterPart k = base.cluster();
        WorkloadPart w = base.workload();
        return new RunConfig(new ClusterPart(k.backend(), c.size().nodes(), k.zookeeper(), k.sync(),
                k.system(), k.bugs()),
                new WorkloadPart(w.name(), c.size().clients(), c.size().keys() > 0
                        ? w.options().withKeys(c.size().keys()) : w.options(), w.sessionTimeout(), w.requestTimeout(),
                        w.clients()),
                c.schedule().faults().isEmpty()
                        ? new NemesisPart(io.zkchaos.nemesis.Nemeses.NONE, base.nemesis().faultFor(),
                                base.nemesis().healFor())
                        : new NemesisPart(base.nemesis().name(), base.nemesis().faultFor(),
                                base.nemesis().healFor(), base.nemesis().compose(), c.schedule(),
                                base.nemesis().without()),
                c.schedule().faults().isEmpty() ? withoutNemesisRelax(base.checks()) : base.checks(),
                new Timing(Duration.ofMillis(c.size().mainPhaseMillis()),
                base.timing().recover()), base.seed(), base.out(), base.storage(), base.load());
    }

    /** The checks without relaxing the nemesis's requirements, which a run without faults does not have. */
    private static io.zkchaos.checkers.CheckerOptions withoutNemesisRelax(io.zkchaos.checkers.CheckerOptions checks) {
        List<String> nemesis = List.of(io.zkchaos.nemesis.NemesisDescriptor.FAULT_APPLIED,
                io.zkchaos.nemesis.NemesisDescriptor.TRIGGER_FIRED, io.zkchaos.nemesis.NemesisDescriptor.ACKED_UNDER_FAULT);
        return checks.withRelax(checks.relax().stream().filter(id -> !nemesis.contains(id)).toList());
    }

    /** What the built-in faults allow: their least hold under the run's session timeout, the nodes they act on. */
    static Shrinker.Rules rules(RunConfig config) {
        return new Shrinker.Rules() {
            @Override
            public long minHoldMillis(String fault) {
                return Faults.byName(fault).map(f -> f.holdAtLeast(config.workload().sessionTimeout()).toMillis())
                        .orElse(0L);
            }

            @Override
            public boolean supports(String fault, int nodes) {
                return Faults.byName(fault).map(f -> f.supports(nodes)).orElse(false);
            }
        };
    }

    private static ShrinkReport.Page page(RecordedRun original, Shrinker.Result result, Replay.Summary confirmed,
                                          Path dir) {
        String originalRate = Replay.read(original.directory().path().resolve(Replay.DIRECTORY))
                .map(s -> s.rate() + " replays found it again").orElse("not measured (./zkchaos replay "
                        + original.directory().path() + ")");
        ShrinkReport.Side before = ShrinkReport.side(dir, "original", original.directory(),
                String.join(", ", original.kinds()), faults(result.original().schedule()),
                seconds(result.original()), result.original().size().describe(), originalRate);
        Shrinker.Candidate s = result.smallest();
        RunDirectory smallestRun = result.smallestRun() == null ? original.directory()
                : new RunDirectory(result.smallestRun().directory());
        ShrinkReport.Side after = ShrinkReport.side(dir, "shrunk", smallestRun, result.smallestRun() == null
                ? "(nothing smaller reproduced)" : String.join(", ", result.smallestRun().kinds()),
                faults(s.schedule()), seconds(s), s.size().describe(), confirmed == null ? "not replayed"
                        : confirmed.rate() + " replays found it again");
        List<ShrinkReport.Step> steps = new ArrayList<>();
        for (Shrinker.Step st : result.steps()) {
            steps.add(new ShrinkReport.Step(st.number(), st.move(), st.tries().stream().map(TrialRun::outcome)
                    .toList(), st.kept()));
        }
        String headline = String.join(", ", original.kinds()) + ": from " + result.original().schedule().faults()
                .size() + " fault(s) in " + seconds(result.original()) + " to " + s.schedule().faults().size()
                + " in " + seconds(s) + (result.budgetSpent() ? " (budget spent)" : "")
                + (result.plainBug() ? "; " + Shrinker.Result.PLAIN_BUG : "");
        return new ShrinkReport.Page(original.directory().path().toString(), headline, before, after, steps,
                RunDirectory.SCHEDULE);
    }

    private static List<String> faults(FaultSchedule s) {
        return s.faults().stream().map(w -> Shrinker.window(w) + (w.nodes().isEmpty() ? "" : " on "
                + nodes(w.nodes(), w.roles()))).toList();
    }

    private static String nodes(List<String> nodes, SortedMap<String, String> roles) {
        return String.join(", ", nodes.stream().map(n -> roles.containsKey(n) ? n + " (" + roles.get(n) + ")" : n)
                .toList());
    }

    private static String seconds(Shrinker.Candidate c) {
        return Shrinker.seconds(c.size().mainPhaseMillis()) + " s";
    }

    private static String minutes(long nanos) {
        long s = TimeUnit.NANOSECONDS.toSeconds(nanos);
        return s / 60 + " min " + s % 60 + " s";
    }
}
