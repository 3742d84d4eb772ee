package io.zkchaos.harness.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * Debian's {@code chromium}, headless, driven through the DevTools protocol over a loopback WebSocket (the JDK's own
 * client): opens a local page, records every network request, console message, log entry and uncaught exception of
 * that page, evaluates expressions in it and takes screenshots. Used to check that a report draws, logs no error and
 * requests nothing from the network, and to time how long Chromium takes to load it.
 *
 * <p>The browser starts with a fresh profile directory and the flags that keep it off the network
 * ({@code --disable-background-networking --disable-component-update --disable-sync --no-first-run --disable-quic});
 * {@link #close()} ends it and every process it started, and deletes the profile.
 */
public final class HeadlessChromium implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> CANDIDATES = List.of("/usr/bin/chromium", "/usr/bin/chromium-browser",
            "/usr/bin/google-chrome");

    private final Process process;
    private final Path profile;
    private final Path log;
    private final WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
    private final List<JsonNode> events = new CopyOnWriteArrayList<>();

    /**
     * What a page did while it loaded.
     *
     * @param requests   the URL of every request the page made (its own file included)
     * @param errors     console errors, uncaught exceptions and error log entries (CSP violations among them)
     * @param loadMillis from the navigation until the page was loaded and its script said it had drawn
     *                   ({@code data-ready})
     */
    public record PageLoad(List<String> requests, List<String> errors, long loadMillis) {

        /** Requests to anything but the local file system or inline data. */
        public List<String> networkRequests() {
            return requests.stream().filter(u -> !u.startsWith("file:") && !u.startsWith("data:")
                    && !u.startsWith("about:")).toList();
        }
    }

    private HeadlessChromium(Process process, Path profile, Path log, WebSocket socket) {
        this.process = process;
        this.profile = profile;
        this.log = log;
        this.socket = socket;
    }

    /** The browser binary: {@code $CHROMIUM} if set, else the first of Debian's usual paths that exists. */
    public static Optional<Path> find() {
        String env = System.getenv("CHROMIUM");
        if (env != null && !env.isBlank()) {
            return Optional.of(Path.of(env)).filter(Files::isExecutable);
        }
        return CANDIDATES.stream().map(Path::of).filter(Files::isExecutable).findFirst();
    }

    /**
     * Starts the browser with a fresh profile under {@code workDir} and connects to its first page.
     *
     * @throws IllegalStateException naming the problem (and the tail of the browser's log) if it does not come up
     */
    public static HeadlessChromium start(Path binary, Path workDir, Duration timeout) {
        Path profile;
        Path log;
        try {
            Files.createDirectories(workDir);
            profile = Files.createTempDirectory(workDir, "chromium-profile-");
            log = profile.resolveSibling(profile.getFileName() + ".log");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a browser profile in " + workDir + ": " + e, e);
        }
        List<String> cmd = List.of(binary.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--disable-quic", "--disable-default-apps", "--disable-extensions", "--mute-audio",
                "--user-data-dir=" + profile, "--remote-debugging-port=0", "--remote-allow-origins=*",
                "--window-size=1400,900", "about:blank");
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + binary + ": " + e.getMessage(), e);
        }
        try {
            long deadline = System.nanoTime() + timeout.toNanos();
            Path portFile = profile.resolve("DevToolsActivePort");
            while (!Files.isRegularFile(portFile) || Files.size(portFile) == 0) {
                if (!p.isAlive()) {
                    throw new IllegalStateException("chromium exited with " + p.exitValue() + " at start; its log: "
                            + tail(log));
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("chromium did not open its DevTools port within " + timeout
                            + "; its log: " + tail(log));
                }
                TimeUnit.MILLISECONDS.sleep(50);
            }
            int port = Integer.parseInt(Files.readAllLines(portFile).get(0).trim());
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
            String pageSocket = null;
            while (pageSocket == null) {
                HttpResponse<String> list = http.send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + port + "/json/list")).timeout(Duration.ofSeconds(10))
                        .build(), HttpResponse.BodyHandlers.ofString());
                for (JsonNode t : JSON.readTree(list.body())) {
                    if (t.path("type").asText().equals("page")) {
                        pageSocket = t.path("webSocketDebuggerUrl").asText();
                        break;
                    }
                }
                if (pageSocket == null) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("chromium opened no page within " + timeout);
                    }
                    TimeUnit.MILLISECONDS.sleep(50);
                }
            }
            Listener listener = new Listener();
            WebSocket ws = http.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(10))
                    .buildAsync(URI.create(pageSocket), listener).get(30, TimeUnit.SECONDS);
            HeadlessChromium c = new HeadlessChromium(p, profile, log, ws);
            listener.owner = c;
            for (String domain : List.of("Network", "Runtime", "Log", "Page")) {
                c.call(domain + ".enable", JSON.createObjectNode(), Duration.ofSeconds(30));
            }
            return c;
        } catch (IOException | ExecutionException | TimeoutException | RuntimeException e) {
            kill(p);
            deleteTree(profile);
            throw e instanceof RuntimeException re ? re
                    : new IllegalStateException("cannot drive chromium: " + e + "; its log: " + tail(log), e);
        } catch (InterruptedException e) {
            kill(p);
            deleteTree(profile);
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting chromium", e);
        }
    }

    /**
     * Loads {@code page} (a local file) at {@code width} CSS pixels and waits until it is loaded and, for a run
     * report, until its script has marked the body {@code data-ready="true"}.
     *
     * @throws IllegalStateException if it does not within {@code timeout}
     */
    public PageLoad open(Path page, int width, Duration timeout) {
        events.clear();
        ObjectNode metrics = JSON.createObjectNode().put("width", width).put("height", 900)
                .put("deviceScaleFactor", 1).put("mobile", false);
        call("Emulation.setDeviceMetricsOverride", metrics, timeout);
        long t0 = System.nanoTime();
        call("Page.navigate", JSON.createObjectNode().put("url", page.toAbsolutePath().toUri().toString()), timeout);
        long deadline = t0 + timeout.toNanos();
        // A report marks its body data-ready once its script has drawn; a page without data (the suite index) is
        // ready when loaded.
        String ready = "document.readyState === 'complete' && (!document.getElementById('data')"
                + " || document.body.getAttribute('data-ready') === 'true')";
        while (!evaluate(ready).asBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(page + " was not drawn within " + timeout + "; errors so far: "
                        + errors());
            }
            try {
                TimeUnit.MILLISECONDS.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while loading " + page, e);
            }
        }
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        List<String> requests = new ArrayList<>();
        for (JsonNode e : events) {
            if (e.path("method").asText().equals("Network.requestWillBeSent")) {
                requests.add(e.path("params").path("request").path("url").asText());
            }
        }
        return new PageLoad(requests, errors(), millis);
    }

    /** Every error the page reported so far. */
    private List<String> errors() {
        List<String> out = new ArrayList<>();
        for (JsonNode e : events) {
            JsonNode p = e.path("params");
            switch (e.path("method").asText()) {
                case "Runtime.consoleAPICalled" -> {
                    if (p.path("type").asText().equals("error") || p.path("type").asText().equals("assert")) {
                        out.add("console." + p.path("type").asText() + ": " + p.path("args").toString());
                    }
                }
                case "Runtime.exceptionThrown" -> out.add("uncaught: " + p.path("exceptionDetails").toString());
                case "Log.entryAdded" -> {
                    if (p.path("entry").path("level").asText().equals("error")) {
                        out.add("log: " + p.path("entry").path("text").asText() + " "
                                + p.path("entry").path("url").asText());
                    }
                }
                default -> { }
            }
        }
        return out;
    }

    /** Evaluates {@code expression} in the page and returns its value (JSON). */
    public JsonNode evaluate(String expression) {
        ObjectNode params = JSON.createObjectNode().put("expression", expression).put("returnByValue", true);
        JsonNode r = call("Runtime.evaluate", params, Duration.ofSeconds(60));
        if (r.has("exceptionDetails")) {
            throw new IllegalStateException("evaluating " + expression + " threw: " + r.get("exceptionDetails"));
        }
        return r.path("result").path("value");
    }

    /** A PNG of the whole page (not only the window) at the width it was opened with. */
    public void screenshot(Path png) {
        JsonNode size = evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]");
        ObjectNode clip = JSON.createObjectNode().put("x", 0).put("y", 0).put("width", size.get(0).asInt())
                .put("height", Math.min(size.get(1).asInt(), 16_000)).put("scale", 1);
        ObjectNode params = JSON.createObjectNode().put("format", "png").put("captureBeyondViewport", true);
        params.set("clip", clip);
        JsonNode r = call("Page.captureScreenshot", params, Duration.ofSeconds(60));
        try {
            Files.createDirectories(png.toAbsolutePath().getParent());
            Files.write(png, Base64.getDecoder().decode(r.path("data").asText()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + png + ": " + e.getMessage(), e);
        }
    }

    private JsonNode call(String method, ObjectNode params, Duration timeout) {
        int id = ids.incrementAndGet();
        CompletableFuture<JsonNode> reply = new CompletableFuture<>();
        pending.put(id, reply);
        ObjectNode msg = JSON.createObjectNode().put("id", id).put("method", method);
        msg.set("params", params);
        try {
            socket.sendText(JSON.writeValueAsString(msg), true).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            JsonNode r = reply.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (r.has("error")) {
                throw new IllegalStateException(method + " failed: " + r.get("error"));
            }
            return r.path("result");
        } catch (IOException | ExecutionException | TimeoutException e) {
            throw new IllegalStateException(method + " got no answer from chromium within " + timeout + ": " + e
                    + "; its log: " + tail(log), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted during " + method, e);
        } finally {
            pending.remove(id);
        }
    }

    private void onMessage(String text) {
        try {
            JsonNode m = JSON.readTree(text);
            if (m.has("id")) {
                CompletableFuture<JsonNode> f = pending.get(m.get("id").asInt());
                if (f != null) {
                    f.complete(m);
                }
            } else {
                events.add(m);
            }
        } catch (IOException e) {
            events.add(JSON.createObjectNode().put("method", "unreadable").put("text", text));
        }
    }

    /** Collects fragmented text frames into messages. */
    private static final class Listener implements WebSocket.Listener {
        private final StringBuilder buffer = new StringBuilder();
        volatile HeadlessChromium owner;

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            buffer.append(data);
            if (last) {
                String text = buffer.toString();
                buffer.setLength(0);
                if (owner != null) {
                    owner.onMessage(text);
                }
            }
            ws.request(1);
            return null;
        }
    }

    /** Ends the browser and every process it started; deletes the profile. Idempotent. */
    @Override
    public void close() {
        socket.abort();
        kill(process);
        deleteTree(profile);
        try {
            Files.deleteIfExists(log);
        } catch (IOException e) {
            // a log left in the work directory loses nothing
        }
    }

    private static void kill(Process p) {
        List<ProcessHandle> all = new ArrayList<>(p.descendants().toList());
        all.forEach(ProcessHandle::destroy);
        p.destroy();
        try {
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            for (ProcessHandle h : all) {
                h.onExit().get(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            all.forEach(ProcessHandle::destroyForcibly);
        }
    }

    private static void deleteTree(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            // best effort: a profile left in a build directory harms nothing
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException | RuntimeException e) {
            return "(no log: " + e + ")";
        }
    }
}
