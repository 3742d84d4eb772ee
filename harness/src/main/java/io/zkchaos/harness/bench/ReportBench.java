package io.zkchaos.harness.bench;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.CheckerOptions;
import io.zkchaos.checkers.bench.HistoryGenerator;
import io.zkchaos.checkers.codec.HistoryFiles;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.checkers.linear.LinearizabilityChecker;
import io.zkchaos.checkers.model.Models;
import io.zkchaos.harness.report.HeadlessChromium;
import io.zkchaos.results.CheckSettings;
import io.zkchaos.results.RunDirectory;
import io.zkchaos.results.report.RunReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code zkchaos bench report}: how the report scales. For each size, a generated cas-register history (seeded, with
 * a planted stale read so the page carries a counterexample, and a fault every 10 s), checked, written as a run
 * directory, then: the time to render its {@code index.html} from the files (best of 3), the page's size, and, when
 * Chromium is installed, the time headless Chromium takes from navigation until the page has drawn, the script's own
 * drawing time, and the time to redraw after a click (the whole run; an entry link that zooms in). Leaves each page
 * and a screenshot next to it.
 *
 * <p>Options: {@code --ops 10000,100000} (operations per history), {@code --out DIR} (default
 * {@code target/report-bench}).
 */
public final class ReportBench {

    private ReportBench() {
    }

    public static void main(String[] args) throws IOException {
        List<Integer> sizes = List.of(10_000, 100_000);
        Path out = Path.of("target/report-bench");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--ops" -> sizes = Arrays.stream(args[++i].split(",")).map(String::trim)
                        .map(Integer::parseInt).toList();
                case "--out" -> out = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("unknown option '" + args[i]
                        + "'; known: --ops N[,N...], --out DIR");
            }
        }
        Optional<Path> chromium = HeadlessChromium.find();
        System.out.printf(Locale.ROOT, "%9s %9s %11s %10s %12s %12s %12s %13s %13s%n", "ops", "entries",
                "render ms", "page MB", "history MB", "load ms", "draw ms", "redraw all", "redraw zoom");
        for (int n : sizes) {
            RunDirectory dir = prepare(out.resolve("ops-" + n), n);
            long best = Long.MAX_VALUE;
            for (int r = 0; r < 3; r++) {
                long t0 = System.nanoTime();
                RunReport.write(dir);
                best = Math.min(best, System.nanoTime() - t0);
            }
            double pageMb = Files.size(dir.reportFile()) / 1e6;
            double historyMb = Files.size(dir.historyFile()) / 1e6;
            String load = "-";
            String draw = "-";
            String all = "-";
            String zoom = "-";
            if (chromium.isPresent()) {
                try (HeadlessChromium c = HeadlessChromium.start(chromium.get(), out.resolve("chromium"),
                        Duration.ofSeconds(60))) {
                    HeadlessChromium.PageLoad l = c.open(dir.reportFile(), 1400, Duration.ofMinutes(5));
                    load = Long.toString(l.loadMillis());
                    draw = c.evaluate("document.body.getAttribute('data-render-ms')").asText();
                    all = ms(c, "document.getElementById('zoom-all').click()");
                    zoom = ms(c, "document.querySelector('p.headline a.ref').click()");
                    c.screenshot(dir.path().resolve("index.png"));
                    if (!l.errors().isEmpty() || !l.networkRequests().isEmpty()) {
                        System.out.println("  errors " + l.errors() + ", network requests " + l.networkRequests());
                    }
                }
            }
            System.out.printf(Locale.ROOT, "%9d %9d %11.0f %10.1f %12.1f %12s %12s %13s %13s%n", n,
                    HistoryFiles.read(dir.historyFile()).size(), best / 1e6, pageMb, historyMb, load, draw, all,
                    zoom);
        }
        if (chromium.isEmpty()) {
            System.out.println("(no chromium found: load times not measured; apt-get install chromium)");
        }
        System.out.println("pages and screenshots in " + out.toAbsolutePath());
    }

    private static String ms(HeadlessChromium c, String action) {
        return String.format(Locale.ROOT, "%.0f", c.evaluate("(() => { const t = performance.now(); " + action
                + "; return performance.now() - t; })()").asDouble());
    }

    /** A checked run directory with a generated history of {@code n} operations. */
    private static RunDirectory prepare(Path path, int n) throws IOException {
        if (Files.exists(path.resolve(RunDirectory.HISTORY))) {
            try (var files = Files.walk(path)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
        HistoryGenerator.Spec spec = new HistoryGenerator.Spec(HistoryGenerator.Workload.CAS_REGISTER, 5, 10, n,
                0.01, 42);
        List<Op> generated = HistoryGenerator.plantStaleRead(HistoryGenerator.generate(spec));
        // One entry a millisecond (the generator's clock is one a microsecond), and a fault every 10 s for 4 s.
        List<Op> ops = new ArrayList<>(generated.size() + generated.size() / 4000);
        long nextFault = 10_000_000_000L;
        boolean faulted = false;
        for (Op op : generated) {
            long t = op.time() * 1000;
            if (t >= nextFault) {
                String f = faulted ? "heal" : "isolate-leader";
                Object did = faulted ? Map.of("fault", "heal", "description", "heal: all connected")
                        : Map.of("fault", f, "description", "isolate n1 from {n2, n3}", "nodes", List.of("n1"),
                        "grudge", Map.of("n1", List.of("n2", "n3"), "n2", List.of("n1"), "n3", List.of("n1")));
                ops.add(new Op(ops.size(), Op.NEMESIS, OpType.INVOKE, f, null, f, null, t));
                ops.add(new Op(ops.size(), Op.NEMESIS, OpType.INFO, f, null, did, null, t + 1));
                nextFault += faulted ? 6_000_000_000L : 4_000_000_000L;
                faulted = !faulted;
            }
            ops.add(new Op(ops.size(), op.process(), op.type(), op.f(), op.key(), op.value(), op.error(), t + 2));
        }
        History history = History.of(ops);
        RunDirectory dir = new RunDirectory(path);
        dir.writeConfig(new CheckSettings("generated cas-register, " + n + " operations", "generated: " + spec,
                "linearizable", "cas-register", CheckerOptions.defaults().withModel("cas-register", 0L)
                .withTimeLimit(Duration.ofMinutes(2))));
        HistoryFiles.write(dir.historyFile(), history);
        CheckResult result = LinearizabilityChecker.builder(Models.byName("cas-register", 0L))
                .timeLimit(Duration.ofMinutes(2)).build().check(history);
        dir.writeResults(result);
        return dir;
    }
}
