package io.zkchaos.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Findings;
import io.zkchaos.checkers.Validity;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsFileTest {

    @TempDir
    Path tmp;

    @Test
    void everyKindOfFindingIsReadBackFromResultsJsonAsTheRecordThatWroteIt() {
        assertThat(FindingSamples.all().keySet()).as("a sample of every kind")
                .containsExactlyElementsOf(Findings.kinds().keySet());
        List<CheckResult> parts = new ArrayList<>();
        FindingSamples.all().forEach((kind, findings) -> {
            assertThat(findings).isInstanceOf(Findings.kinds().get(kind));
            parts.add(CheckResult.of("checker-of-" + kind, Validity.INVALID, "found " + kind, findings));
        });
        CheckResult written = new CheckResult("all", Validity.INVALID, "found everything", null, List.of(
                new CheckResult("nested", Validity.UNKNOWN, "one level down", null, parts)));
        RunDirectory run = new RunDirectory(tmp);
        run.writeResults(written);

        CheckResult read = run.readCheckResult();
        assertThat(read).isEqualTo(written);
        assertThat(read.parts().get(0).parts()).extracting(CheckResult::details)
                .containsExactlyElementsOf(FindingSamples.all().values());
        FindingSamples.all().keySet().forEach(kind -> assertThat(run.readResults().path("parts").get(0)
                .path("parts").findValuesAsText("kind")).contains(kind));
    }

    @Test
    void resultsJsonKeepsItsShapeWithTheKindAddedToTheDetails() {
        RunDirectory run = new RunDirectory(tmp);
        run.writeResults(CheckResult.of("no-lost-commit", Validity.INVALID, "lost 7", FindingSamples.set()));
        var saved = run.readResults();
        assertThat(saved.fieldNames()).toIterable().containsExactly("checker", "valid", "summary", "details", "parts");
        assertThat(saved.get("valid").asBoolean(true)).isFalse();
        assertThat(saved.path("details").fieldNames()).toIterable().first().isEqualTo("kind");
        assertThat(saved.path("details").path("kind").asText()).isEqualTo("set");
        assertThat(saved.path("details").path("lost").get(0).path("value").asLong()).isEqualTo(7);
    }

    @Test
    void detailsSavedWithoutAKindOrWithAnUnknownOneAreKeptAsSaved() throws Exception {
        RunDirectory run = new RunDirectory(tmp);
        Files.writeString(run.resultsFile(), """
                {"checker": "set", "valid": false, "summary": "lost 2 values", "details": null, "parts": [
                  {"checker": "no-lost-commit", "valid": false, "summary": "lost 2 values",
                   "details": {"lost": [{"value": 3}], "finalReads": [], "attempted": 5}, "parts": []},
                  {"checker": "timeline", "valid": "unknown", "summary": "later", "details": {"kind": "from-the-future",
                   "x": 1}, "parts": []}]}
                """);
        CheckResult read = run.readCheckResult();
        assertThat(read.validity()).isEqualTo(Validity.INVALID);
        assertThat(read.details()).isNull();
        assertThat(read.parts().get(0).details()).isEqualTo(new Findings.Untyped(Map.of(
                "lost", List.of(Map.of("value", 3L)), "finalReads", List.of(), "attempted", 5L)));
        assertThat(read.parts().get(1).validity()).isEqualTo(Validity.UNKNOWN);
        assertThat(read.parts().get(1).details()).isEqualTo(new Findings.Untyped(Map.of("x", 1L)));
    }

    @Test
    void aFileThatIsNoResultsFileIsAnErrorNamingIt() throws Exception {
        RunDirectory run = new RunDirectory(tmp);
        Files.writeString(run.resultsFile(), "{\"checker\": \"set\", \"valid\": \"maybe\", \"summary\": \"\"}");
        assertThatThrownBy(run::readCheckResult).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining(RunDirectory.RESULTS).hasMessageContaining("maybe");
    }

    @Test
    void evidenceJsonHoldsTheEvidenceAloneWithoutAKindAsBefore() throws Exception {
        RunDirectory run = new RunDirectory(tmp);
        run.writeEvidence(FindingSamples.evidence());
        assertThat(Files.readString(run.evidenceFile())).startsWith("{\n  \"exercised\" :").doesNotContain("kind");
        assertThat(run.readEvidence()).contains(FindingSamples.evidence());
    }
}
