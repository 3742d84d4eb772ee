package io.zkchaos.nemesis;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.zkchaos.nemesis.frame.TriggerRecord;
import io.zkchaos.nemesis.partition.Partition;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a fault really did, as data for the history (Jackson writes it as a plain JSON object).
 *
 * @param fault       the fault's name, e.g. {@code isolate-leader}, {@code majorities-ring}, {@code kill-random},
 *                    {@code heal}
 * @param description one line for people, e.g. {@code isolate n3 from [n1, n2]} or {@code kill n2}
 * @param nodes  the nodes acted on: the processes killed/paused/resumed, or for a partition the nodes that lost
 *               some peer (empty for heal)
 * @param groups for partitions the components (a bridge: both sides, each with the bridge node; a ring: each
 *               node's majority); empty for process faults
 * @param grudge for partitions, every node with the nodes it does not hear from; empty for process faults
 * @param triggers for protocol-aware faults, what each armed frame trigger did: the packet that fired it (type,
 *                 zxid, link, count) and the action, or that it never fired within the fault window; empty (and not
 *                 written) for other faults
 * @param aim      the choices the action made (nodes, orders, moments, delays) and every node's role then, so that a
 *                 replay can make them again; null (and not written) when it chose nothing
 * @param felt     what the system felt of the fault, node by node, measured from the system when the action was done
 *                 (kills, pauses, clocks) or when the fault ended (disks, links: their stop's record, or the final
 *                 heal's for the faults it ended); empty (and not written, absent in older histories) when nothing
 *                 was measured: unknown
 */
public record FaultRecord(String fault, String description, List<String> nodes, List<List<String>> groups,
                          SortedMap<String, SortedSet<String>> grudge,
                          @JsonInclude(JsonInclude.Include.NON_EMPTY) List<TriggerRecord> triggers,
                          @JsonInclude(JsonInclude.Include.NON_NULL) Aim aim,
                          @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Felt> felt) {

    /** A record without triggers. */
    public FaultRecord(String fault, String description, List<String> nodes, List<List<String>> groups,
                       SortedMap<String, SortedSet<String>> grudge) {
        this(fault, description, nodes, groups, grudge, List.of());
    }

    /** A record of what was done, without its aim. */
    public FaultRecord(String fault, String description, List<String> nodes, List<List<String>> groups,
                       SortedMap<String, SortedSet<String>> grudge, List<TriggerRecord> triggers) {
        this(fault, description, nodes, groups, grudge, triggers, null);
    }

    /** A record of what was done and the choices that made it, with nothing measured of what was felt. */
    public FaultRecord(String fault, String description, List<String> nodes, List<List<String>> groups,
                       SortedMap<String, SortedSet<String>> grudge, List<TriggerRecord> triggers, Aim aim) {
        this(fault, description, nodes, groups, grudge, triggers, aim, List.of());
    }

    /** This record with the choices that made it. */
    public FaultRecord withAim(Aim aim) {
        return new FaultRecord(fault, description, nodes, groups, grudge, triggers, aim, felt);
    }

    /** This record with what the system felt ({@link #felt}) in place of what it had. */
    public FaultRecord withFelt(List<Felt> felt) {
        return new FaultRecord(fault, description, nodes, groups, grudge, triggers, aim, felt);
    }

    public FaultRecord {
        triggers = triggers == null ? List.of() : List.copyOf(triggers); // absent in JSON: none
        felt = felt == null ? List.of() : List.copyOf(felt); // absent in JSON: nothing measured
        Objects.requireNonNull(fault, "fault");
        Objects.requireNonNull(description, "description");
        nodes = List.copyOf(nodes);
        groups = groups.stream().map(List::copyOf).toList();
        SortedMap<String, SortedSet<String>> g = new TreeMap<>();
        grudge.forEach((k, v) -> g.put(k, java.util.Collections.unmodifiableSortedSet(new TreeSet<>(v))));
        grudge = java.util.Collections.unmodifiableSortedMap(g);
    }

    /** A process fault: no groups, no grudge. */
    public static FaultRecord process(String fault, String action, List<String> nodes) {
        return new FaultRecord(fault, action + " " + (nodes.isEmpty() ? "nothing" : String.join(", ", nodes)),
                nodes, List.of(), new TreeMap<>());
    }

    /** A partition as applied; {@code nodes} are those that do not hear some peer. */
    public static FaultRecord partition(String fault, Partition p) {
        List<String> affected = p.grudge().entrySet().stream().filter(e -> !e.getValue().isEmpty())
                .map(Map.Entry::getKey).sorted().toList();
        List<List<String>> groups = p.groups().stream().map(g -> (List<String>) List.copyOf(g)).toList();
        return new FaultRecord(fault, p.description(), affected, groups, p.grudge());
    }
}
