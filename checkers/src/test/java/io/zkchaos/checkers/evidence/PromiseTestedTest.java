package io.zkchaos.checkers.evidence;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.HistoryBuilder;
import io.zkchaos.checkers.Validity;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A promise the workload claims for itself ({@link Requirement.PromiseTested}) must have been put to the test, like
 * any other minimum; the checkers' other promises are only reported, tested or not.
 */
class PromiseTestedTest {

    private static final Requirement EXPIRED = new Requirement.PromiseTested("session-guarantees", "expired");
    private static final Minimum SESSIONS = Minimum.of(
            new Requirement.Acknowledged("acked-ephemerals", Phase.MAIN, Set.of("create")), EXPIRED);

    /** A run whose clients got their creates through. */
    private static Exercised run(Map<String, List<PromiseTally>> promises) {
        return Exercised.of(new HistoryBuilder().okOp(0, "create", null, null, 1).build()).withPromises(promises);
    }

    private static Map<String, List<PromiseTally>> sessions(long closed, long expired) {
        return Map.of("session-guarantees", List.of(
                new PromiseTally("closed", "a closed session's ephemerals are never read after the close", closed),
                new PromiseTally("expired", "an expired session's ephemerals go within the bound", expired)));
    }

    @Test
    void theIdNamesTheCheckerAndThePromise() {
        assertThat(EXPIRED.id()).isEqualTo("promise:session-guarantees:expired");
        assertThat(SESSIONS.ids()).containsExactly("acked-ephemerals", "promise:session-guarantees:expired");
    }

    @Test
    void aMandatoryPromiseTestedNoTimeMakesTheRunUnknownNamingIt() {
        CheckResult r = SESSIONS.judge(run(sessions(4, 0)), List.of());
        assertThat(r.validity()).isEqualTo(Validity.UNKNOWN);
        assertThat(r.summary()).contains("promise session-guarantees:expired (an expired session's ephemerals go "
                + "within the bound) was not put to the test: 0 times");
        EvidenceReport report = (EvidenceReport) r.details();
        assertThat(report.met()).containsExactly("acked-ephemerals");
        assertThat(report.exercised().promises().get("session-guarantees")).extracting(PromiseTally::tested)
                .containsExactly(4L, 0L);
    }

    @Test
    void relaxedByItsIdTheRunIsValidAndTheReportStillSaysItWasNotTested() {
        CheckResult r = SESSIONS.judge(run(sessions(4, 0)), List.of("promise:session-guarantees:expired"));
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
        EvidenceReport report = (EvidenceReport) r.details();
        assertThat(report.relaxed()).containsExactly("promise:session-guarantees:expired");
        assertThat(report.exercised().promisesNotTested()).containsExactly("session-guarantees:expired");
    }

    @Test
    void aMandatoryPromiseTestedOnceIsMet() {
        CheckResult r = SESSIONS.judge(run(sessions(4, 1)), List.of());
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
        assertThat(((EvidenceReport) r.details()).met()).contains("promise:session-guarantees:expired");
    }

    @Test
    void aReportedOnlyPromiseNotTestedLeavesTheRunValidAndIsListedAsNotJudged() {
        Minimum reportedOnly = Minimum.of(new Requirement.Acknowledged("acked-ephemerals", Phase.MAIN,
                Set.of("create")));
        Exercised exercised = run(sessions(4, 0));
        CheckResult r = reportedOnly.judge(exercised, List.of());
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
        assertThat(exercised.promisesNotTested()).containsExactly("session-guarantees:expired");
        assertThat(ExerciseText.lines(exercised)).contains(
                "promises of session-guarantees: closed 4, expired 0 (not judged)");
    }

    @Test
    void aCheckerThatSaidNothingOrDoesNotKnowThePromiseLeavesItUntested() {
        CheckResult silent = SESSIONS.judge(run(Map.of()), List.of());
        assertThat(silent.validity()).isEqualTo(Validity.UNKNOWN);
        assertThat(silent.summary()).contains("session-guarantees said nothing of its promises");

        CheckResult unknownPromise = SESSIONS.judge(run(Map.of("session-guarantees",
                List.of(new PromiseTally("closed", "closed", 3)))), List.of());
        assertThat(unknownPromise.validity()).isEqualTo(Validity.UNKNOWN);
        assertThat(unknownPromise.summary()).contains("session-guarantees judges no promise 'expired' (its "
                + "promises: closed)");
    }

    @Test
    void anExercisedWithoutPromisesHasNone() {
        Exercised plain = Exercised.of(new HistoryBuilder().okOp(0, "create", null, null, 1).build());
        assertThat(plain.promises()).isEmpty();
        assertThat(plain.promisesNotTested()).isEmpty();
        assertThat(plain.withObserved(Map.of(), 2, Map.of()).withPromises(sessions(1, 1))
                .withObserved(Map.of(), 3, Map.of()).promises()).containsKey("session-guarantees");
    }

    @Test
    void theEvidenceFileKeepsThePromisesAndOneWrittenBeforeThemStillReads() throws Exception {
        com.fasterxml.jackson.databind.ObjectMapper mapper = new com.fasterxml.jackson.databind.ObjectMapper();
        EvidenceReport report = (EvidenceReport) SESSIONS.judge(run(sessions(4, 0)), List.of()).details();
        String json = mapper.writeValueAsString(report);
        assertThat(mapper.readValue(json, EvidenceReport.class)).isEqualTo(report);

        com.fasterxml.jackson.databind.node.ObjectNode old = (com.fasterxml.jackson.databind.node.ObjectNode)
                mapper.readTree(json);
        ((com.fasterxml.jackson.databind.node.ObjectNode) old.get("exercised")).remove("promises");
        EvidenceReport before = mapper.treeToValue(old, EvidenceReport.class);
        assertThat(before.exercised().promises()).isEmpty();
        assertThat(before.unmet()).isEqualTo(report.unmet());
    }
}
