package io.zkchaos.checkers.evidence;

import io.zkchaos.checkers.Findings;
import java.util.List;

/**
 * The details of the evidence result: what the run exercised, what it was held to, and how it fared.
 *
 * @param exercised what the run exercised
 * @param required  the ids of the requirements of its workload and nemesis
 * @param relaxed   the ids the user relaxed ({@code all}: every one)
 * @param met       the ids of the requirements it met
 * @param unmet     why it fell short, one line per requirement it did not meet
 */
public record EvidenceReport(Exercised exercised, List<String> required, List<String> relaxed, List<String> met,
                             List<String> unmet) implements Findings {

    public EvidenceReport {
        required = List.copyOf(required);
        relaxed = List.copyOf(relaxed);
        met = List.copyOf(met);
        unmet = List.copyOf(unmet);
    }
}
