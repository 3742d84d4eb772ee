package io.zkchaos.nemesis.toxiproxy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.zkchaos.nemesis.net.Link;
import io.zkchaos.nemesis.net.Stream;
import io.zkchaos.nemesis.net.Toxic;
import io.zkchaos.nemesis.net.ToxicType;
import io.zkchaos.nemesis.proxy.FaultProxy;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Toxiproxy's HTTP API served over the embedded {@link FaultProxy}, so that the Toxiproxy Java client (and
 * Testcontainers' Toxiproxy module) drive the project's own proxy exactly as they drive Toxiproxy. It serves the part
 * of the API those clients use:
 * <ul>
 *   <li>{@code GET /version}; {@code POST /reset} (every proxy enabled, every toxic removed);</li>
 *   <li>{@code GET /proxies}, {@code POST /proxies} ({@code name}, {@code listen}, {@code upstream}, optional
 *       {@code enabled}), {@code GET|POST|DELETE /proxies/{name}} (a POST changes {@code enabled}, {@code listen} or
 *       {@code upstream});</li>
 *   <li>{@code GET|POST /proxies/{name}/toxics}, {@code GET|POST|DELETE /proxies/{name}/toxics/{toxic}} for the toxic
 *       types of {@link ToxicType}: latency, bandwidth, slicer, timeout, reset_peer, limit_data.</li>
 * </ul>
 * Bodies and answers are Toxiproxy's JSON; errors are {@code {"error": "...", "status": N}} with Toxiproxy's
 * status codes (400 bad input, 404 unknown proxy or toxic, 409 a name taken, 500 a listen address that cannot be
 * bound).
 *
 * <p>Deviations, each because the embedded proxy works that way (see docs/fault-proxy.md):
 * <ul>
 *   <li>an upstream host name is resolved when the proxy is created or changed, not at each connection;</li>
 *   <li>updating a toxic replaces it: it moves to the end of the toxic list, and its removal has its usual effect
 *       (a {@code timeout} toxic's stalled connections are closed);</li>
 *   <li>{@code slow_close} is refused with 400: the embedded proxy has no such toxic;</li>
 *   <li>the toxics' own behaviour deviates from Toxiproxy's where docs/fault-proxy.md says so (a refusing upstream
 *       is retried for a moment; black-holed connections never reach the upstream).</li>
 * </ul>
 * Thread-safe; requests are served one at a time.
 */
public final class ToxiproxyServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ToxiproxyServer.class);
    /** What {@code GET /version} answers. */
    public static final String VERSION = "zk-chaos FaultProxy (Toxiproxy API 2)";
    private static final AtomicInteger THREADS = new AtomicInteger();

    private final FaultProxy proxy;
    private final HttpServer http;
    private final ExecutorService executor;
    private final ObjectMapper json = new ObjectMapper();
    /** What each proxy was created with (the link holds enabled state and toxics), in creation order. */
    private final Map<String, Spec> specs = new LinkedHashMap<>();

    /** How a proxy's upstream was asked for: as written (a host name stays one in answers), and as resolved. */
    private record Spec(String upstreamText, InetSocketAddress upstream) {
    }

    private ToxiproxyServer(FaultProxy proxy, HttpServer http, ExecutorService executor) {
        this.proxy = proxy;
        this.http = http;
        this.executor = executor;
    }

    /**
     * Serves the API on {@code address} over {@code proxy}, which the server then owns and closes.
     *
     * @throws UncheckedIOException naming the address when it cannot be bound
     */
    public static ToxiproxyServer start(InetSocketAddress address, FaultProxy proxy) {
        Objects.requireNonNull(proxy, "proxy");
        HttpServer http;
        try {
            http = HttpServer.create(address, 64);
        } catch (IOException e) {
            proxy.close();
            throw new UncheckedIOException("cannot serve the Toxiproxy API on " + address + ": " + e.getMessage(), e);
        }
        ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "zkchaos-toxiproxy-api-" + THREADS.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        ToxiproxyServer server = new ToxiproxyServer(proxy, http, executor);
        http.createContext("/", server::handle);
        http.setExecutor(executor);
        http.start();
        return server;
    }

    /** The address the API listens on (the port actually bound). */
    public InetSocketAddress address() {
        return http.getAddress();
    }

    /** The proxy the API drives. */
    public FaultProxy proxy() {
        return proxy;
    }

    /** Stops serving the API and closes the proxy with every link and connection. Idempotent. */
    @Override
    public void close() {
        http.stop(0);
        executor.shutdownNow();
        proxy.close();
    }

    /** A failure answered as Toxiproxy's error JSON. */
    private static final class ApiError extends RuntimeException {
        final int status;

        ApiError(int status, String message) {
            super(message);
            this.status = status;
        }
    }

    private void handle(HttpExchange ex) throws IOException {
        try {
            int status;
            Object body;
            try {
                Answer a = route(ex.getRequestMethod(), ex.getRequestURI(), ex.getRequestBody());
                status = a.status;
                body = a.body;
            } catch (ApiError e) {
                status = e.status;
                body = error(e.status, e.getMessage());
            } catch (RuntimeException e) {
                LOG.warn("Toxiproxy API {} {} failed", ex.getRequestMethod(), ex.getRequestURI(), e);
                status = 500;
                body = error(500, String.valueOf(e.getMessage()));
            }
            if (body == null) {
                ex.sendResponseHeaders(status, -1);
                return;
            }
            byte[] bytes = body instanceof String s ? s.getBytes(StandardCharsets.UTF_8)
                    : json.writeValueAsBytes(body);
            ex.getResponseHeaders().set("Content-Type", body instanceof String ? "text/plain; charset=utf-8"
                    : "application/json");
            ex.sendResponseHeaders(status, bytes.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(bytes);
            }
        } finally {
            ex.close();
        }
    }

    private record Answer(int status, Object body) {
        static Answer ok(Object body) {
            return new Answer(200, body);
        }
    }

    private ObjectNode error(int status, String message) {
        ObjectNode e = json.createObjectNode();
        e.put("error", message);
        e.put("status", status);
        return e;
    }

    private Answer route(String method, URI uri, InputStream in) throws IOException {
        List<String> parts = new ArrayList<>();
        for (String p : uri.getRawPath().split("/")) {
            if (!p.isEmpty()) {
                parts.add(URLDecoder.decode(p, StandardCharsets.UTF_8));
            }
        }
        String path = String.join("/", parts);
        synchronized (this) {
            if (parts.size() == 1 && parts.get(0).equals("version") && method.equals("GET")) {
                return Answer.ok(VERSION);
            }
            if (parts.size() == 1 && parts.get(0).equals("reset") && method.equals("POST")) {
                reset();
                return new Answer(204, null);
            }
            if (parts.isEmpty() || !parts.get(0).equals("proxies")) {
                throw new ApiError(404, "no such endpoint: " + method + " /" + path);
            }
            if (parts.size() == 1) {
                return switch (method) {
                    case "GET" -> Answer.ok(proxiesJson());
                    case "POST" -> new Answer(201, createProxy(body(in)));
                    default -> throw notAllowed(method, path);
                };
            }
            String name = parts.get(1);
            if (parts.size() == 2) {
                return switch (method) {
                    case "GET" -> Answer.ok(proxyJson(name, link(name)));
                    case "POST" -> Answer.ok(updateProxy(name, body(in)));
                    case "DELETE" -> {
                        link(name);
                        proxy.removeLink(name);
                        specs.remove(name);
                        yield new Answer(204, null);
                    }
                    default -> throw notAllowed(method, path);
                };
            }
            if (!parts.get(2).equals("toxics") || parts.size() > 4) {
                throw new ApiError(404, "no such endpoint: " + method + " /" + path);
            }
            Link link = link(name);
            if (parts.size() == 3) {
                return switch (method) {
                    case "GET" -> Answer.ok(toxicsJson(link));
                    case "POST" -> Answer.ok(addToxic(link, body(in)));
                    default -> throw notAllowed(method, path);
                };
            }
            String toxicName = parts.get(3);
            return switch (method) {
                case "GET" -> Answer.ok(json.valueToTree(toxic(link, toxicName)));
                case "POST" -> Answer.ok(updateToxic(link, toxic(link, toxicName), body(in)));
                case "DELETE" -> {
                    toxic(link, toxicName);
                    link.removeToxic(toxicName);
                    yield new Answer(204, null);
                }
                default -> throw notAllowed(method, path);
            };
        }
    }

    private static ApiError notAllowed(String method, String path) {
        return new ApiError(405, "method " + method + " not allowed on /" + path);
    }

    private JsonNode body(InputStream in) throws IOException {
        byte[] raw = in.readAllBytes();
        if (raw.length == 0) {
            throw new ApiError(400, "bad request body: empty");
        }
        try {
            JsonNode node = json.readTree(raw);
            if (node == null || !node.isObject()) {
                throw new ApiError(400, "bad request body: not a JSON object");
            }
            return node;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new ApiError(400, "bad request body: " + e.getOriginalMessage());
        }
    }

    private Link link(String name) {
        return proxy.link(name).orElseThrow(() -> new ApiError(404, "proxy not found"));
    }

    private static Toxic toxic(Link link, String name) {
        return link.toxics().stream().filter(t -> t.name().equals(name)).findFirst()
                .orElseThrow(() -> new ApiError(404, "toxic not found"));
    }

    private void reset() {
        for (Link l : proxy.links()) {
            l.heal();
        }
    }

    private ObjectNode proxiesJson() {
        ObjectNode all = json.createObjectNode();
        for (Link l : proxy.links()) {
            all.set(l.name(), proxyJson(l.name(), l));
        }
        return all;
    }

    private ObjectNode proxyJson(String name, Link l) {
        Spec spec = specs.get(name);
        ObjectNode p = json.createObjectNode();
        p.put("name", name);
        p.put("listen", hostPort(l.listenAddress()));
        p.put("upstream", spec != null ? spec.upstreamText() : hostPort(l.upstreamAddress()));
        p.put("enabled", l.enabled());
        p.set("toxics", toxicsJson(l));
        return p;
    }

    private ArrayNode toxicsJson(Link l) {
        ArrayNode a = json.createArrayNode();
        for (Toxic t : l.toxics()) {
            a.add(json.<JsonNode>valueToTree(t));
        }
        return a;
    }

    private ObjectNode createProxy(JsonNode body) {
        String name = requiredText(body, "name");
        String upstreamText = requiredText(body, "upstream");
        String listenText = body.hasNonNull("listen") ? body.get("listen").asText() : "127.0.0.1:0";
        boolean enabled = !body.hasNonNull("enabled") || body.get("enabled").asBoolean();
        if (proxy.link(name).isPresent()) {
            throw new ApiError(409, "proxy already exists");
        }
        Link l = create(name, listenText, upstreamText, enabled, List.of());
        return proxyJson(name, l);
    }

    /** Creates a link; on any failure nothing is left of it. */
    private Link create(String name, String listenText, String upstreamText, boolean enabled, List<Toxic> toxics) {
        InetSocketAddress listen = address("listen", listenText);
        InetSocketAddress upstream = address("upstream", upstreamText);
        Link l;
        try {
            l = proxy.createLink(name, listen, upstream);
        } catch (IllegalArgumentException e) {
            throw new ApiError(400, e.getMessage());
        } catch (UncheckedIOException e) {
            throw new ApiError(500, e.getMessage());
        }
        try {
            for (Toxic t : toxics) {
                l.addToxic(t);
            }
            if (!enabled) {
                l.setEnabled(false);
            }
        } catch (RuntimeException e) {
            proxy.removeLink(name);
            throw e;
        }
        specs.put(name, new Spec(upstreamText, upstream));
        return l;
    }

    private ObjectNode updateProxy(String name, JsonNode body) {
        Link l = link(name);
        Spec spec = specs.get(name);
        String listenText = body.hasNonNull("listen") ? body.get("listen").asText() : hostPort(l.listenAddress());
        String upstreamText = body.hasNonNull("upstream") ? body.get("upstream").asText()
                : spec != null ? spec.upstreamText() : hostPort(l.upstreamAddress());
        boolean enabled = body.hasNonNull("enabled") ? body.get("enabled").asBoolean() : l.enabled();
        boolean moved = body.hasNonNull("listen") && !address("listen", listenText).equals(l.listenAddress())
                || body.hasNonNull("upstream") && !address("upstream", upstreamText).equals(l.upstreamAddress());
        if (moved) {
            // As Toxiproxy does: stop the proxy (its connections end), then start it on the new addresses.
            List<Toxic> toxics = l.toxics();
            proxy.removeLink(name);
            specs.remove(name);
            l = create(name, listenText, upstreamText, enabled, toxics);
        } else if (enabled != l.enabled()) {
            try {
                l.setEnabled(enabled);
            } catch (UncheckedIOException e) {
                throw new ApiError(500, e.getMessage());
            }
        }
        return proxyJson(name, l);
    }

    private JsonNode addToxic(Link link, JsonNode body) {
        Toxic t = toxicFrom(body, null);
        if (link.toxics().stream().anyMatch(x -> x.name().equals(t.name()))) {
            throw new ApiError(409, "toxic already exists");
        }
        link.addToxic(t);
        return json.valueToTree(t);
    }

    private JsonNode updateToxic(Link link, Toxic old, JsonNode body) {
        Toxic updated = toxicFrom(body, old);
        link.removeToxic(old.name());
        link.addToxic(updated);
        return json.valueToTree(updated);
    }

    /**
     * A toxic from Toxiproxy's JSON; fields left out take Toxiproxy's defaults (stream downstream, toxicity 1, name
     * {@code <type>_<stream>}, attributes 0), or the values of {@code base} when it is an update.
     */
    private Toxic toxicFrom(JsonNode body, Toxic base) {
        ToxicType type;
        if (base != null) {
            type = base.type();
        } else {
            String typeName = requiredText(body, "type");
            if (typeName.equals("slow_close")) {
                throw new ApiError(400, "toxic type slow_close is not supported by the zk-chaos fault proxy "
                        + "(supported: latency, bandwidth, slicer, timeout, reset_peer, limit_data)");
            }
            try {
                type = ToxicType.fromWireName(typeName);
            } catch (IllegalArgumentException e) {
                throw new ApiError(400, e.getMessage());
            }
        }
        Stream stream;
        try {
            stream = body.hasNonNull("stream") && base == null ? Stream.fromWireName(body.get("stream").asText())
                    : base != null ? base.stream() : Stream.DOWNSTREAM;
        } catch (IllegalArgumentException e) {
            throw new ApiError(400, e.getMessage());
        }
        String name = base != null ? base.name() : body.hasNonNull("name") ? body.get("name").asText()
                : type.wireName() + "_" + stream.wireName();
        double toxicity = body.hasNonNull("toxicity") ? body.get("toxicity").asDouble()
                : base != null ? base.toxicity() : 1.0;
        Map<String, Long> attributes = new LinkedHashMap<>(base != null ? base.attributes() : Map.of());
        JsonNode attrs = body.get("attributes");
        if (attrs != null && !attrs.isNull()) {
            if (!attrs.isObject()) {
                throw new ApiError(400, "attributes must be a JSON object");
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = attrs.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (!e.getValue().isIntegralNumber()) {
                    throw new ApiError(400, "toxic '" + name + "': attribute " + e.getKey()
                            + " must be an integer, was " + e.getValue());
                }
                attributes.put(e.getKey(), e.getValue().asLong());
            }
        }
        try {
            return new Toxic(name, type, stream, toxicity, attributes);
        } catch (IllegalArgumentException e) {
            throw new ApiError(400, e.getMessage());
        }
    }

    private static String requiredText(JsonNode body, String field) {
        JsonNode v = body.get(field);
        if (v == null || v.isNull() || v.asText().isBlank()) {
            throw new ApiError(400, "missing required field: " + field);
        }
        return v.asText();
    }

    /** Parses Toxiproxy's {@code host:port} ({@code [v6]:port}; an empty host is every address) and resolves it. */
    static InetSocketAddress address(String field, String text) {
        int colon = text.lastIndexOf(':');
        if (colon < 0) {
            throw new ApiError(400, field + " must be host:port, was '" + text + "'");
        }
        String host = text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(text.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new ApiError(400, field + " must be host:port, was '" + text + "'");
        }
        if (port < 0 || port > 65535) {
            throw new ApiError(400, field + ": port out of range in '" + text + "'");
        }
        try {
            return new InetSocketAddress(InetAddress.getByName(host.isEmpty() ? "0.0.0.0" : host), port);
        } catch (UnknownHostException e) {
            throw new ApiError(400, field + ": cannot resolve host '" + host + "'");
        }
    }

    private static String hostPort(InetSocketAddress a) {
        String host = a.getAddress() != null ? a.getAddress().getHostAddress() : a.getHostString();
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort();
    }
}
