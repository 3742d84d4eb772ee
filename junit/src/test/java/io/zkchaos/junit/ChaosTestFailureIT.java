package io.zkchaos.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.opentest4j.AssertionFailedError;

/**
 * A chaos test whose client code is broken fails, and its failure says what the checker found and where the
 * report is; a chaos test that tested nothing (its client never opened, its body recorded nothing) fails too, saying
 * so: the extension run on a real ensemble through JUnit's test kit.
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

    /** The test kit's events of one example class, and what failed its one chaos test. */
    private record Failed(EngineExecutionResults results, Throwable thrown) {
    }

    /** Runs the one chaos test of {@code example}, which must fail. */
    private static Failed run(Class<?> example) {
        EngineExecutionResults results = EngineTestKit.engine("junit-jupiter").selectors(selectClass(example))
                .execute();
        results.testEvents().assertStatistics(s -> s.started(1).failed(1).succeeded(0));
        Throwable thrown = results.testEvents().failed().list().get(0).getRequiredPayload(TestExecutionResult.class)
                .getThrowable().orElseThrow();
        return new Failed(results, thrown);
    }

    /** The report's path in a failure's message; the page exists. */
    private static Path report(String message) {
        Matcher report = Pattern.compile("report: (\\S+index\\.html)").matcher(message);
        assertThat(report.find()).as("a report path in: %s", message).isTrue();
        Path page = Path.of(report.group(1));
        assertThat(page).isRegularFile();
        return page;
    }

    @Test
    void aLostUpdateFailsTheTestWithTheExplanationAndTheReport() throws Exception {
        Failed failed = run(BrokenCounterExample.class);
        assertThat(failed.thrown()).isInstanceOf(AssertionFailedError.class);
        String message = failed.thrown().getMessage();
        assertThat(message).startsWith("broken-counter-none: INVALID")
                .contains("linearizable invalid: ").contains("cannot be linearized")
                .contains("report: ").contains("run directory: ");

        Path page = report(message);
        assertThat(page.getParent().resolve("history.jsonl")).isRegularFile();
        assertThat(Files.readString(page.getParent().resolve("results.json"))).contains("\"valid\" : false");
        // the same path is published as a report entry, for IDEs and build tools that show them
        assertThat(failed.results().allEvents().reportingEntryPublished().list()).anySatisfy(e -> assertThat(
                e.getRequiredPayload(ReportEntry.class).getKeyValuePairs())
                .containsEntry("zkchaos.report", page.toString()));
    }

    @Test
    void aClientThatNeverOpensFailsTheTestAtTheOpenTimeoutWithTheLastError() {
        Failed failed = run(UnopenableClientExample.class);
        assertThat(failed.thrown()).isInstanceOf(AssertionFailedError.class)
                .hasMessageFindingMatch("^process [01] could not open its client for \\d+ms, past the open timeout "
                        + "of 2s \\(@ChaosTest\\(openTimeout\\)\\): \\d+ attempt\\(s\\), the last failed with: "
                        + "NoNodeException: KeeperErrorCode = NoNode for " + UnopenableClientExample.CONFIG + "\n")
                .hasRootCauseInstanceOf(KeeperException.NoNodeException.class);
        // the run was still checked and reported: the verdict and the report follow the reason
        report(failed.thrown().getMessage());
        assertThat(failed.thrown().getMessage()).contains("client-never-opens-none: ");
    }

    @Test
    void aBodyThatRecordsNothingFailsTheTestSayingSo() {
        Failed failed = run(SilentBodyExample.class);
        assertThat(failed.thrown()).isInstanceOf(AssertionFailedError.class)
                .hasMessageStartingWith("SilentBodyExample.bodyRecordsNothing recorded no operation, so nothing was "
                        + "tested: run clients with chaos.runClients(...)");
        report(failed.thrown().getMessage());
    }
}
