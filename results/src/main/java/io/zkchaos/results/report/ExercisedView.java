package io.zkchaos.results.report;

import io.zkchaos.checkers.evidence.EvidenceReport;
import io.zkchaos.checkers.evidence.Exercised;
import io.zkchaos.checkers.evidence.FaultTally;
import io.zkchaos.checkers.evidence.Minimum;
import io.zkchaos.checkers.evidence.OpCounts;
import io.zkchaos.checkers.evidence.Phase;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What the report shows of what a run exercised ({@code evidence.json}, an {@link EvidenceReport}), worked out here
 * so that the template only lays it out.
 *
 * @param enough       whether the run met every requirement it was held to
 * @param unmet        why it fell short, one line per requirement it did not meet (empty when enough)
 * @param requirements every requirement of its workload and nemesis, with how it fared
 * @param relaxed      what the user relaxed ({@code --relax}), in words; empty when nothing was
 * @param finalHeal    whether the history holds the nemesis' final heal (without it nothing is "after the heal")
 * @param functions    the client operations per function
 * @param total        the client operations of every function together
 * @param faults       what the nemesis did, per fault
 * @param observed     what the harness saw of the system: quorum syncs, leader changes, retired client processes,
 *                     bug code paths, its own reads after the run; and each checker's promises with how often the
 *                     run tested them
 * @param fact         the header's figure: {@code 412 acknowledged, 210 under faults}
 */
public record ExercisedView(boolean enough, List<String> unmet, List<RequirementRow> requirements, String relaxed,
                            boolean finalHeal, List<FunctionRow> functions, FunctionRow total, List<FaultRow> faults,
                            List<CheckerCard.Fact> observed, String fact) {

    /** How some operations ended, as counts written for the page; {@code total} 0 means none was made. */
    public record Counts(String ok, String fail, String info, long total) {
        static Counts of(OpCounts c) {
            return new Counts(Fmt.count(c.ok()), Fmt.count(c.fail()), Fmt.count(c.info()), c.total());
        }
    }

    /** One function's operations: over the run, in the main phase, while a fault was in force, after the heal. */
    public record FunctionRow(String f, Counts all, Counts main, Counts underFault, Counts afterHeal) {
        static FunctionRow of(String f, Function<Phase, OpCounts> in) {
            return new FunctionRow(f, Counts.of(in.apply(Phase.ALL)), Counts.of(in.apply(Phase.MAIN)),
                    Counts.of(in.apply(Phase.UNDER_FAULT)), Counts.of(in.apply(Phase.AFTER_HEAL)));
        }
    }

    /**
     * What the nemesis did with one fault.
     *
     * @param okUnder    client operations acknowledged while it was in force
     * @param inFlight   client operations in flight while it was in force, however they ended
     * @param triggers   protocol triggers fired of armed ({@code 2 of 3}), or empty when it armed none
     * @param neverActed whether every start of it could not act or failed
     * @param felt       the starts applied that the system felt, as measured from it ({@code 1 of 2},
     *                   {@code not measured}); empty when none was applied
     * @param unfelt     what was measured of each start applied and not felt
     * @param neverFelt  whether starts were applied and none was felt
     */
    public record FaultRow(String fault, String applied, String couldNotAct, String failed, String attempted,
                           String okUnder, String inFlight, String triggers, List<String> reasons,
                           boolean neverActed, String felt, List<String> unfelt, boolean neverFelt) {
    }

    /**
     * A requirement and how the run fared against it.
     *
     * @param status {@code met}, {@code relaxed} or {@code unmet} (a CSS class)
     */
    public record RequirementRow(String id, String status) {
    }

    static ExercisedView of(EvidenceReport e) {
        Exercised run = e.exercised();
        boolean allRelaxed = e.relaxed().contains(Minimum.ALL);
        List<RequirementRow> requirements = e.required().stream().map(id -> new RequirementRow(id,
                e.met().contains(id) ? "met" : allRelaxed || e.relaxed().contains(id) ? "relaxed" : "unmet"))
                .toList();
        String relaxed = allRelaxed ? "every requirement (" + Minimum.ALL + ")" : String.join(", ", e.relaxed());
        List<FunctionRow> functions = run.functions().stream()
                .map(t -> FunctionRow.of(t.f(), t::in)).toList();
        List<FaultRow> faults = run.faults().stream().map(ExercisedView::fault).toList();
        return new ExercisedView(e.unmet().isEmpty(), e.unmet(), requirements, relaxed, run.finalHeal(), functions,
                FunctionRow.of("every function", run::clients), faults, observed(run), fact(e));
    }

    private static FaultRow fault(FaultTally f) {
        return new FaultRow(f.fault(), Fmt.count(f.applied()), Fmt.count(f.couldNotAct()), Fmt.count(f.failed()),
                Fmt.count(f.attempted()), Fmt.count(f.okUnder()), Fmt.count(f.invokedUnder()),
                f.triggersArmed() == 0 ? "" : Fmt.count(f.triggersFired()) + " of " + Fmt.count(f.triggersArmed()),
                f.reasons(), f.applied() == 0, felt(f), f.unfelt(), f.applied() > 0 && f.felt() == 0);
    }

    /** {@code 1 of 2}, {@code 2 of 2 (1 not measured)}, {@code not measured}; empty when none was applied. */
    private static String felt(FaultTally f) {
        if (f.applied() == 0) {
            return "";
        }
        if (f.measured() == 0) {
            return "not measured";
        }
        return Fmt.count(f.felt()) + " of " + Fmt.count(f.applied())
                + (f.measured() < f.applied() ? " (" + Fmt.count(f.applied() - f.measured()) + " not measured)" : "");
    }

    private static List<CheckerCard.Fact> observed(Exercised run) {
        List<CheckerCard.Fact> facts = new ArrayList<>();
        facts.add(new CheckerCard.Fact("quorum syncs", run.quorumSyncs().isEmpty()
                ? "not watched (no fault tapped the quorum links)" : counts(run.quorumSyncs())));
        facts.add(new CheckerCard.Fact("leader changes",
                run.leaderChanges() < 0 ? "not observed" : Fmt.count(run.leaderChanges())));
        facts.add(new CheckerCard.Fact("client processes retired (an operation of unknown outcome)",
                Fmt.count(run.retiredProcesses())));
        facts.add(new CheckerCard.Fact("bug code paths run", run.bugCodePaths().isEmpty()
                ? "none counted (no bug switched on in the project's own nodes)" : counts(run.bugCodePaths())));
        if (!run.harness().isEmpty()) {
            facts.add(new CheckerCard.Fact("the harness's own reads after the run", run.harness().entrySet().stream()
                    .map(x -> x.getKey() + " " + x.getValue()).collect(Collectors.joining(", "))));
        }
        // what each checker put to the test: a promise tested 0 times was not judged, whatever the verdict says
        run.promises().forEach((checker, tallies) -> facts.add(new CheckerCard.Fact("promises " + checker
                + " judged", tallies.isEmpty() ? "none" : tallies.stream().map(t -> t.id() + " "
                + (t.wasTested() ? Fmt.count(t.tested()) : "0 (not judged)")).collect(Collectors.joining(", ")))));
        return facts;
    }

    private static String counts(Map<String, Long> m) {
        return m.entrySet().stream().map(x -> x.getKey() + " " + Fmt.count(x.getValue()))
                .collect(Collectors.joining(", "));
    }

    /** {@code 412 acknowledged, 210 under faults}, and whether that was too little. */
    private static String fact(EvidenceReport e) {
        return Fmt.count(e.exercised().clients(Phase.ALL).ok()) + " acknowledged, "
                + Fmt.count(e.exercised().clients(Phase.UNDER_FAULT).ok()) + " under faults"
                + (e.unmet().isEmpty() ? "" : " — too little to be evidence");
    }
}
