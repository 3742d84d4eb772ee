package io.zkchaos.results;

import com.fasterxml.jackson.databind.JsonNode;
import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.evidence.Minimum;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The kinds of finding a verdict holds, each {@code checker:kind} ({@code no-lost-commit:lost},
 * {@code zk-read-model:not-linearizable}, {@code single-leader:duplicate-token} ...): what "the same finding" means
 * when a run is replayed or shrunk. Two runs that lost different elements, or caught a different pair of leaders,
 * found the same kind of thing.
 *
 * <p>This is the one place that reads what the checkers' details look like for it (in the saved form of
 * {@code results.json}, so that a run's saved verdict and a fresh one read alike). A checker whose details it does not
 * know, or that says invalid without any finding it knows, gives {@code checker:invalid}.
 */
public final class FindingKind {

    private FindingKind() {
    }

    /** The finding kinds of a fresh verdict. */
    public static SortedSet<String> of(CheckResult result) {
        return of(Json.MAPPER.valueToTree(ResultsFile.of(result)));
    }

    /** The finding kinds of a saved verdict ({@code results.json}): none when it is not invalid. */
    public static SortedSet<String> of(JsonNode results) {
        SortedSet<String> kinds = new TreeSet<>();
        collect(results, null, kinds);
        return kinds;
    }

    private static void collect(JsonNode r, String parent, Set<String> kinds) {
        if (r == null || Verdicts.fromJson(r.get("valid")) != Validity.INVALID) {
            return;
        }
        String checker = r.path("checker").asText();
        if (checker.equals(Minimum.CHECKER)) {
            return; // what the run exercised is not a finding
        }
        JsonNode details = r.path("details");
        String owner = parent == null ? checker : parent;
        int before = kinds.size();
        for (String kind : kinds(checker, details)) {
            kinds.add(owner + ":" + kind);
        }
        for (JsonNode part : r.path("parts")) {
            // a composed verdict's parts are checkers of their own; a checker's sub-check is its own finding
            collect(part, details.isMissingNode() || details.isNull() ? null : owner, kinds);
        }
        if (kinds.size() == before && parent == null && (details.isObject() || r.path("parts").isEmpty())) {
            kinds.add(checker + ":invalid");
        }
    }

    /** What one checker's details show, by its name. */
    private static Set<String> kinds(String checker, JsonNode d) {
        Set<String> k = new TreeSet<>();
        switch (checker) {
            case "no-lost-commit" -> {
                nonEmpty(d, "lost", "lost", k);
                nonEmpty(d, "unexpected", "unexpected", k);
            }
            case "log-prefix", "fenced-writes" -> d.path("violations").forEach(v -> k.add(v.path("kind").asText()));
            case "zk-read-model" -> {
                d.path("violations").forEach(v -> k.add(v.path("kind").asText()));
                if (d.path("strict").asBoolean() && !d.path("staleReads").isEmpty()) {
                    k.add("stale-read");
                }
            }
            case "linearizable" -> {
                if (d.hasNonNull("counterexample")) {
                    k.add("not-linearizable");
                }
            }
            case "single-leader" -> {
                d.path("tokenViolations").forEach(v -> k.add(v.path("kind").asText()));
                d.path("failovers").forEach(f -> {
                    if (f.path("withinBound").isBoolean() && !f.path("withinBound").booleanValue()) {
                        k.add("no-leader-in-bound");
                    }
                });
                long max = d.path("maxOverlapNanos").asLong(-1);
                d.path("overlaps").forEach(o -> {
                    if (max >= 0 && o.path("awakeNanos").asLong(-1) > max) {
                        k.add("overlap");
                    }
                });
            }
            case "final-state" -> {
                if (d.path("groups").size() > 1) {
                    k.add("diverged");
                }
                nonEmpty(d, "ephemerals", "ephemeral-left", k);
            }
            default -> {
            }
        }
        k.remove("");
        return k;
    }

    private static void nonEmpty(JsonNode d, String field, String kind, Set<String> k) {
        if (d.path(field).isArray() && !d.path(field).isEmpty()) {
            k.add(kind);
        }
    }

    /**
     * Whether the run exercised what its verdict needs ({@code results.json}'s evidence part is valid), or says
     * nothing of it (a run checked before evidence was judged). A run below its minimum found nothing that counts.
     */
    public static boolean exercisedEnough(JsonNode results) {
        for (JsonNode part : results.path("parts")) {
            if (part.path("checker").asText().equals(Minimum.CHECKER)) {
                return Verdicts.fromJson(part.get("valid")) == Validity.VALID;
            }
        }
        return true;
    }
}
