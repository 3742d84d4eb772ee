package io.zkchaos.results.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/**
 * A run's {@code config.json} as the report reads it: one flat object whatever the layout. Runs write their
 * configuration in parts ({@code {"cluster": {"backend", "nodes", "zookeeper"}, "workload": {"name", ...},
 * "nemesis": {"name", ...}, "checks": {...}, "timing": {...}, "seed", "out"}}); runs before that wrote one flat
 * object ({@code {"workload": "register", "nemesis": "none", "nodes": 3, ...}}), and {@code check --report} writes a
 * flat one with {@code title}. The flat view keeps the top-level names the report uses ({@code workload},
 * {@code nemesis}, {@code nodes}, {@code zookeeper}, {@code seed}, and for the ssh backend {@code hosts}: which host
 * ran each node) and names nested settings by their path
 * ({@code workload.options.keys}).
 */
final class ConfigView {

    private ConfigView() {
    }

    /** The flat view of {@code config}, or null for null. */
    static JsonNode flatten(JsonNode config) {
        if (config == null || !config.isObject() || !config.path("workload").isObject()) {
            return config; // already flat (or not an object at all)
        }
        ObjectNode flat = JsonNodeFactory.instance.objectNode();
        flat.set("workload", config.path("workload").path("name"));
        flat.set("nemesis", config.path("nemesis").path("name"));
        JsonNode cluster = config.path("cluster");
        for (String k : new String[] {"nodes", "zookeeper", "backend", "system"}) {
            if (cluster.has(k)) {
                flat.set(k, cluster.get(k));
            }
        }
        if (cluster.path("bugs").isArray() && !cluster.path("bugs").isEmpty()) { // the fle nodes' bug flags
            java.util.List<String> bugs = new java.util.ArrayList<>();
            cluster.path("bugs").forEach(b -> bugs.add(b.asText()));
            flat.put("bugs", String.join(", ", bugs));
        }
        JsonNode hosts = cluster.path("hosts").path("hosts"); // the ssh backend's: node i on the i-th host
        if (hosts.isArray() && !hosts.isEmpty()) {
            int nodes = cluster.path("nodes").asInt(hosts.size());
            java.util.List<String> on = new java.util.ArrayList<>();
            for (int i = 0; i < Math.min(nodes, hosts.size()); i++) {
                on.add("n" + (i + 1) + " " + hosts.get(i).path("name").asText());
            }
            flat.put("hosts", String.join(", ", on));
        }
        if (config.has("seed")) {
            flat.set("seed", config.get("seed"));
        }
        for (Map.Entry<String, JsonNode> e : config.properties()) {
            if (!e.getKey().equals("seed")) {
                add(flat, e.getKey(), e.getValue());
            }
        }
        return flat;
    }

    private static void add(ObjectNode flat, String path, JsonNode v) {
        if (v.isObject()) {
            for (Map.Entry<String, JsonNode> e : v.properties()) {
                add(flat, path + "." + e.getKey(), e.getValue());
            }
        } else if (!flat.has(path) && !path.equals("workload.name") && !path.equals("nemesis.name")
                && !path.startsWith("cluster.")) {
            flat.set(path, v);
        }
    }
}
