package io.zkchaos.results.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.zkchaos.results.CheckSettings;
import io.zkchaos.results.ConfigFile;
import io.zkchaos.results.Json;
import io.zkchaos.results.RunSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A {@code config.json} as the report shows it: a few figures for the header (a run's nodes, system and seed; the
 * checker and model of a check), and every setting as a row, the ones a reader looks for first and then the rest
 * named by their path ({@code workload.options.keys}).
 */
final class ConfigView {

    private ConfigView() {
    }

    /** The figures for the page's header. */
    static List<CheckerCard.Fact> facts(ConfigFile config) {
        List<CheckerCard.Fact> facts = new ArrayList<>();
        if (config instanceof RunSettings r) {
            RunSettings.Cluster c = r.cluster();
            add(facts, "nodes", c.nodes());
            if (!c.hosts().isEmpty()) { // the ssh backend's
                add(facts, "hosts", c.nodesOnHosts());
            }
            add(facts, "system", c.system());
            if (!c.bugs().isEmpty()) { // the fle nodes' bug flags
                add(facts, "bugs", String.join(", ", c.bugs()));
            }
            if (!"fle".equals(c.system())) {
                add(facts, "zookeeper", c.zookeeper());
            }
            add(facts, "seed", r.seed());
        } else if (config instanceof CheckSettings c) {
            add(facts, "checker", c.checker());
            add(facts, "model", c.model());
            add(facts, "history", c.history());
        }
        return facts;
    }

    /** Every setting, as name/value rows. */
    static List<CheckerCard.Fact> rows(ConfigFile config) {
        List<CheckerCard.Fact> rows = new ArrayList<>();
        ObjectNode rest = Json.MAPPER.valueToTree(config);
        rest.remove("command"); // which kind of file: the rows show it
        if (config instanceof RunSettings r) {
            RunSettings.Cluster c = r.cluster();
            add(rows, "workload", r.workload().name());
            add(rows, "nemesis", r.nemesis().name());
            add(rows, "nodes", c.nodes());
            add(rows, "zookeeper", c.zookeeper());
            add(rows, "backend", c.backend());
            if (!c.hosts().isEmpty()) {
                add(rows, "hosts", c.nodesOnHosts());
            }
            add(rows, "system", c.system());
            if (!c.bugs().isEmpty()) {
                add(rows, "bugs", String.join(", ", c.bugs()));
            }
            add(rows, "seed", r.seed());
            rest.remove(List.of("scenario", "cluster", "seed"));
            ((ObjectNode) rest.get("workload")).remove("name");
            ((ObjectNode) rest.get("nemesis")).remove("name");
        }
        for (Map.Entry<String, JsonNode> e : rest.properties()) {
            flatten(rows, e.getKey(), e.getValue());
        }
        return rows;
    }

    private static void add(List<CheckerCard.Fact> out, String name, Object value) {
        if (value != null) {
            out.add(new CheckerCard.Fact(name, String.valueOf(value)));
        }
    }

    private static void flatten(List<CheckerCard.Fact> rows, String path, JsonNode v) {
        if (v.isObject()) {
            for (Map.Entry<String, JsonNode> e : v.properties()) {
                flatten(rows, path + "." + e.getKey(), e.getValue());
            }
        } else {
            rows.add(new CheckerCard.Fact(path, v.isValueNode() ? v.asText() : v.toString()));
        }
    }
}
