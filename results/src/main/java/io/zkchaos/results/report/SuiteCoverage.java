package io.zkchaos.results.report;

import io.zkchaos.checkers.evidence.EvidenceReport;
import io.zkchaos.checkers.evidence.Exercised;
import io.zkchaos.checkers.evidence.Phase;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What a suite's nemeses did, across its runs: per nemesis, the fault starts applied of those attempted and the
 * client operations acknowledged while its faults were in force, summed from each run's {@code evidence.json}. A
 * suite that is all valid says little if its faults never happened; this table says whether they did.
 */
public final class SuiteCoverage {

    /**
     * One nemesis across the suite.
     *
     * @param runs         runs of it
     * @param withEvidence runs of it that recorded what they exercised ({@code 3 of 4})
     * @param applied      fault starts applied of those attempted ({@code 12 of 15})
     * @param ackedUnder   client operations acknowledged while its faults were in force
     * @param belowMinimum runs of it that exercised too little to be evidence
     * @param neverActed   whether it attempted faults and none was applied
     */
    public record Row(String nemesis, String runs, String withEvidence, String applied, String ackedUnder,
                      String belowMinimum, boolean neverActed) {
    }

    private static final class Tally {
        long runs;
        long withEvidence;
        long applied;
        long attempted;
        long ackedUnder;
        long belowMinimum;
    }

    private final Map<String, Tally> byNemesis = new TreeMap<>();

    /** Counts one run of {@code nemesis}, with what it exercised if it recorded that. */
    void add(String nemesis, Optional<EvidenceReport> evidence) {
        Tally t = byNemesis.computeIfAbsent(nemesis, n -> new Tally());
        t.runs++;
        evidence.ifPresent(e -> {
            Exercised run = e.exercised();
            t.withEvidence++;
            t.applied += run.faultsApplied();
            t.attempted += run.faultsAttempted();
            t.ackedUnder += run.clients(Phase.UNDER_FAULT).ok();
            t.belowMinimum += e.unmet().isEmpty() ? 0 : 1;
        });
    }

    /** The nemeses in name order. */
    List<Row> rows() {
        return byNemesis.entrySet().stream().map(e -> {
            Tally t = e.getValue();
            return new Row(e.getKey(), Fmt.count(t.runs), Fmt.count(t.withEvidence) + " of " + Fmt.count(t.runs),
                    Fmt.count(t.applied) + " of " + Fmt.count(t.attempted), Fmt.count(t.ackedUnder),
                    Fmt.count(t.belowMinimum), t.attempted > 0 && t.applied == 0);
        }).toList();
    }
}
