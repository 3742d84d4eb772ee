package io.zkchaos.harness.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.codec.HistoryFiles;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.harness.cli.Main;
import io.zkchaos.harness.run.RunOutcome;
import io.zkchaos.harness.run.Runner;
import io.zkchaos.harness.run.config.RunConfig;
import io.zkchaos.harness.testing.Prerequisites;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reports opened in a real headless Chromium (Debian's {@code chromium}; {@code .ci/run} installs it), driven over
 * the DevTools protocol: the page of a real run draws its timeline, logs no error and makes no network request, and
 * markup in a history shows as text. Screenshots are left in {@code target/report-it/} for people to look at.
 */
class ReportInChromiumIT {

    private static final Path SHOTS = Path.of("target/report-it");
    private static final Duration LOAD = Duration.ofMinutes(2);

    @TempDir
    static Path work;

    private static HeadlessChromium browser;

    @RegisterExtension
    static final ExecutionCondition CHROMIUM = Prerequisites.forClass("chromium", () -> HeadlessChromium.find()
            .isPresent() ? Optional.empty() : Optional.of("not installed, so the report was NOT opened in a browser "
            + "(looked for $CHROMIUM, /usr/bin/chromium, /usr/bin/chromium-browser, /usr/bin/google-chrome; "
            + "apt-get install chromium)"));

    @BeforeAll
    static void startChromium() {
        browser = HeadlessChromium.start(HeadlessChromium.find().orElseThrow(), work.resolve("browser"),
                Duration.ofMinutes(1));
    }

    @AfterAll
    static void stopChromium() {
        if (browser != null) {
            browser.close();
        }
    }

    @Test
    void theReportOfARealRunDrawsItsTimelineWithoutErrorsOrNetworkRequests() throws Exception {
        RunOutcome run = new Runner(new PrintWriter(new StringWriter()), Duration.ofSeconds(5)).run(RunConfig.builder()
                .workload("register").nemesis("isolate-leader").seed(5).timeLimit(Duration.ofSeconds(8))
                .faultFor(Duration.ofSeconds(3)).healFor(Duration.ofSeconds(2)).recover(Duration.ofSeconds(2))
                .concurrency(4).out(work.resolve("store")).build());
        assertThat(run.result().validity()).as(run.result().summary()).isEqualTo(Validity.VALID);
        Path page = run.directory().reportFile();
        assertThat(page).isRegularFile();

        HeadlessChromium.PageLoad load = browser.open(page, 1400, LOAD);
        browser.screenshot(SHOTS.resolve("register-isolate-leader.png"));

        assertThat(load.errors()).as("console errors, exceptions, error log entries").isEmpty();
        assertThat(load.networkRequests()).as("requests to anything but the page's own file").isEmpty();
        assertThat(load.requests()).containsExactly(page.toAbsolutePath().toUri().toString());
        assertThat(count("#timeline svg rect.op")).as("operation bars").isGreaterThan(50);
        assertThat(count("#timeline svg rect.fault")).as("fault windows shaded").isGreaterThanOrEqualTo(1);
        assertThat(count("#leaders svg rect.m-leader")).as("the servers' leader, from cluster.jsonl")
                .isGreaterThanOrEqualTo(1);
        assertThat(browser.evaluate("(() => { const c = document.getElementById('latency');"
                + " const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let n = 0;"
                + " for (let i = 3; i < d.length; i += 4) { if (d[i]) { n++; } } return n; })()").asInt())
                .as("latency pixels drawn").isGreaterThan(1000);

        // Clicking an operation shows its history entries.
        String detail = browser.evaluate("(() => { const r = document.querySelector('#timeline svg rect.op');"
                + " const b = r.getBoundingClientRect(); const o = {bubbles: true, clientX: b.x + 1, clientY: b.y + 1,"
                + " button: 0}; r.dispatchEvent(new MouseEvent('mousedown', o));"
                + " r.dispatchEvent(new MouseEvent('mouseup', o));"
                + " return document.getElementById('detail').textContent; })()").asText();
        assertThat(detail).contains("process").contains("invoke");
        assertThat(browser.evaluate("document.body.getAttribute('data-ready')").asText()).isEqualTo("true");
    }

    @Test
    void markupInAHistoryShowsAsTextAndRunsNothing() throws Exception {
        String img = "<img src=\"http://192.0.2.1/x.png\" onerror=\"window.pwned = 1\">";
        String script = "<script>window.pwned = 2</script>";
        List<Op> ops = List.of(
                Op.invoke(0, 1, "write", img, script, 1_000_000),
                new Op(1, 1, OpType.OK, "write", img, null, null, 2_000_000),
                new Op(2, Op.NEMESIS, OpType.INVOKE, "partition", null, "partition", null, 3_000_000),
                new Op(3, Op.NEMESIS, OpType.INFO, "partition", null, Map.of("fault", "partition",
                        "description", img, "nodes", List.of("n1")), null, 4_000_000),
                Op.invoke(4, 2, "read", img, null, 5_000_000),
                new Op(5, 2, OpType.OK, "read", img, script, null, 6_000_000));
        Path history = work.resolve("markup.jsonl");
        HistoryFiles.write(history, History.of(ops));
        Path dir = work.resolve("markup-report");
        int status = Main.run(new String[] {"check", "--checker", "zk-read-model", "--report", dir.toString(),
                history.toString()}, new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
        assertThat(status).isEqualTo(0);

        HeadlessChromium.PageLoad load = browser.open(dir.resolve("index.html"), 1400, LOAD);
        browser.screenshot(SHOTS.resolve("markup.png"));

        assertThat(load.errors()).isEmpty();
        assertThat(load.networkRequests()).as("an <img> from the history would have fetched 192.0.2.1").isEmpty();
        assertThat(browser.evaluate("typeof window.pwned").asText()).isEqualTo("undefined");
        assertThat(count("img")).isZero();
        assertThat(count("script")).isEqualTo(2);
        assertThat(browser.evaluate("Array.from(document.querySelectorAll('table.faults td'))"
                + ".map(td => td.textContent).join('|')").asText()).contains(img);
        String detail = browser.evaluate("(() => { const r = document.querySelector('#timeline svg rect.op');"
                + " const o = {bubbles: true, button: 0}; r.dispatchEvent(new MouseEvent('mousedown', o));"
                + " r.dispatchEvent(new MouseEvent('mouseup', o));"
                + " return document.getElementById('detail').textContent; })()").asText();
        assertThat(detail).contains(img);
        assertThat(Files.readString(dir.resolve("index.html"))).doesNotContain("<img");
    }

    private static int count(String selector) {
        return browser.evaluate("document.querySelectorAll('" + selector + "').length").asInt();
    }
}
