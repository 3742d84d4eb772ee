package io.zkchaos.checkers.evidence;

import com.fasterxml.jackson.annotation.JsonTypeInfo;
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
// Saved alone too (a run's evidence.json), where its type is known: there it has no kind, as before kinds existed.
// As a checker's details (results.json) it has one, as every Findings.
@JsonTypeInfo(use = JsonTypeInfo.Id.NONE)
public record EvidenceReport(Exercised exercised, List<String> required, List<String> relaxed, List<String> met,
                             List<String> unmet) implements Findings {

    public EvidenceReport {
        required = List.copyOf(required);
        relaxed = List.copyOf(relaxed);
        met = List.copyOf(met);
        unmet = List.copyOf(unmet);
    }
}
