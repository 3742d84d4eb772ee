package io.zkchaos.checkers.evidence;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Validity;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a run must have exercised for its verdict to be evidence: the requirements of its workload and of its
 * nemesis. A run below its minimum is {@code unknown}, with each shortfall named, never {@code valid} (Jepsen's
 * {@code stats} checker makes the same point: a run where some kind of operation never succeeded is not valid).
 * Immutable.
 */
public record Minimum(List<Requirement> requirements) {

    /** The name of the evidence result among a run's checker results. */
    public static final String CHECKER = "evidence";
    /** Relaxing this id relaxes every requirement. */
    public static final String ALL = "all";

    public Minimum {
        Map<String, Requirement> byId = new LinkedHashMap<>();
        for (Requirement r : requirements) {
            byId.putIfAbsent(r.id(), r); // the same requirement declared twice counts once
        }
        requirements = List.copyOf(byId.values());
    }

    public static Minimum of(Requirement... requirements) {
        return new Minimum(List.of(requirements));
    }

    /** This minimum and {@code other}'s requirements. */
    public Minimum and(Minimum other) {
        List<Requirement> all = new ArrayList<>(requirements);
        all.addAll(other.requirements);
        return new Minimum(all);
    }

    /** The ids of the requirements. */
    public List<String> ids() {
        return requirements.stream().map(Requirement::id).toList();
    }

    /**
     * Judges {@code run}: {@code valid} when it meets every requirement not in {@code relaxed}, else {@code unknown}
     * naming each shortfall. Never {@code invalid}: too little evidence says nothing about the system.
     *
     * @param relaxed requirement ids not to hold the run to ({@link #ALL}: none)
     */
    public CheckResult judge(Exercised run, Collection<String> relaxed) {
        Set<String> off = Set.copyOf(relaxed);
        List<String> unmet = new ArrayList<>();
        List<String> met = new ArrayList<>();
        for (Requirement r : requirements) {
            if (off.contains(ALL) || off.contains(r.id())) {
                continue;
            }
            r.unmet(run).ifPresentOrElse(unmet::add, () -> met.add(r.id()));
        }
        EvidenceReport report = new EvidenceReport(run, ids(), List.copyOf(off), met, unmet);
        if (!unmet.isEmpty()) {
            return CheckResult.of(CHECKER, Validity.UNKNOWN, "the run exercised too little to be evidence: "
                    + String.join("; ", unmet), report);
        }
        return CheckResult.of(CHECKER, Validity.VALID, ExerciseText.summary(run), report);
    }
}
