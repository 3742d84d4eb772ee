package io.zkchaos.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.opentest4j.AssertionFailedError;

/**
 * A chaos test whose client code is broken fails, and its failure says what the checker found and where the
 * report is: the extension run on a real ensemble through JUnit's test kit.
 */
class ChaosTestFailureIT {

    @BeforeEach
    void ownStore() {
        System.setProperty("zkchaos.store", BrokenCounterExample.STORE);
    }

    @AfterEach
    void clear() {
        System.clearProperty("zkchaos.store");
    }

    @Test
    void aLostUpdateFailsTheTestWithTheExplanationAndTheReport() throws Exception {
        EngineExecutionResults results = EngineTestKit.engine("junit-jupiter")
                .selectors(selectClass(BrokenCounterExample.class)).execute();

        results.testEvents().assertStatistics(s -> s.started(1).failed(1).succeeded(0));
        Event failed = results.testEvents().failed().list().get(0);
        Throwable thrown = failed.getRequiredPayload(org.junit.platform.engine.TestExecutionResult.class)
                .getThrowable().orElseThrow();
        assertThat(thrown).isInstanceOf(AssertionFailedError.class);
        String message = thrown.getMessage();
        assertThat(message).startsWith("broken-counter-none: INVALID")
                .contains("linearizable invalid: ").contains("cannot be linearized")
                .contains("report: ").contains("run directory: ");

        Matcher report = Pattern.compile("report: (\\S+index\\.html)").matcher(message);
        assertThat(report.find()).as("a report path in: %s", message).isTrue();
        Path page = Path.of(report.group(1));
        assertThat(page).isRegularFile();
        assertThat(page.getParent().resolve("history.jsonl")).isRegularFile();
        assertThat(Files.readString(page.getParent().resolve("results.json"))).contains("\"valid\" : false");
        // the same path is published as a report entry, for IDEs and build tools that show them
        assertThat(results.allEvents().reportingEntryPublished().list()).anySatisfy(e -> assertThat(
                e.getRequiredPayload(org.junit.platform.engine.reporting.ReportEntry.class).getKeyValuePairs())
                .containsEntry("zkchaos.report", page.toString()));
    }
}
