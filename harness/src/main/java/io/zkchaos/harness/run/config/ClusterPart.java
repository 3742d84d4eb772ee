package io.zkchaos.harness.run.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import com.fasterxml.jackson.databind.util.StdConverter;
import io.zkchaos.fle.Bug;
import io.zkchaos.fle.Bugs;
import io.zkchaos.harness.cluster.ClusterBackend;
import io.zkchaos.harness.cluster.ClusterBackends;
import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.SyncMode;
import io.zkchaos.harness.cluster.SystemUnderTest;
import io.zkchaos.harness.cluster.ZooKeeperVersion;
import java.util.List;
import java.util.Objects;

/**
 * What runs the system under test.
 *
 * @param backend   the cluster backend, typed ({@link ClusterBackends} by name, {@code local} by default), with its
 *                  own settings: the ssh backend carries its hosts and checks them against {@code nodes}
 *                  ({@link ClusterBackend#requireNodes}); {@code config.json} keeps its name and the hosts' names
 * @param nodes     ensemble size: 3 or 5 (1 for smoke runs; no network faults possible), checked once, by
 *                  {@link ClusterConfig#ENSEMBLE_SIZES} when the run builds its ensemble
 * @param zookeeper the ZooKeeper version under test, typed where the configuration enters
 *                  ({@link ZooKeeperVersion#of}); {@code config.json} keeps its text
 * @param sync      how followers sync with their leader: ZooKeeper's choice ({@code auto}) or steered to
 *                  DIFF, SNAP or TRUNC ({@link SyncMode})
 * @param system    what runs on the nodes ({@link SystemUnderTest}, parsed where the configuration enters: the
 *                  CLI, the builder, config.json): {@code zookeeper} (the default) or
 *                  {@code fle}, the project's own nodes
 * @param bugs      the fle nodes' bug flags ({@link Bugs#NONE} for the correct build), parsed where the
 *                  configuration enters; only with {@code fle}
 */
public record ClusterPart(@JsonSerialize(converter = BackendName.class) ClusterBackend backend, int nodes,
                          ZooKeeperVersion zookeeper, SyncMode sync,
                          @JsonSerialize(using = ToStringSerializer.class) SystemUnderTest system,
                          @JsonSerialize(converter = BugNames.class) Bugs bugs) {
    public ClusterPart {
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(zookeeper, "zookeeper");
        sync = sync == null ? SyncMode.AUTO : sync;
        system = system == null ? SystemUnderTest.ZOOKEEPER : system;
        bugs = bugs == null ? Bugs.NONE : bugs;
        if (!bugs.none()) {
            requireBugsAllowed(system, bugs.flags());
        }
        backend.requireNodes(nodes);
    }

    /**
     * The names of the hosts that run the nodes, in node order (the ssh backend's; empty for the others): what
     * {@code config.json} keeps of the hosts (not how they are reached).
     */
    @JsonProperty("hosts")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    public List<String> hostNames() {
        return backend.hostNames(nodes);
    }

    /** ZooKeeper on {@code backend}. */
    public ClusterPart(ClusterBackend backend, int nodes, ZooKeeperVersion zookeeper) {
        this(backend, nodes, zookeeper, SyncMode.AUTO, SystemUnderTest.ZOOKEEPER, Bugs.NONE);
    }

    public static ClusterPart defaults() {
        return new ClusterPart(ClusterBackends.require(ClusterBackends.DEFAULT), 3, ZooKeeperVersion.DEFAULT,
                SyncMode.AUTO, SystemUnderTest.ZOOKEEPER, Bugs.NONE);
    }

    /** The bug flags by name, in a stable order, as config.json and the CLI spell them. */
    public List<String> bugNames() {
        return new BugNames().convert(bugs);
    }

    /**
     * The bug flags named as the CLI and config.json spell them ({@code --bug a,b}), parsed: the one place names
     * become {@link Bugs}, after checking that the system has bug flags at all (so an unknown flag on ZooKeeper is
     * refused for being on ZooKeeper).
     *
     * @throws IllegalArgumentException naming the field and the flags
     */
    public static Bugs parseBugs(SystemUnderTest system, List<String> names) {
        if (names == null || names.isEmpty()) {
            return Bugs.NONE;
        }
        requireBugsAllowed(system == null ? SystemUnderTest.ZOOKEEPER : system, String.join(",", names));
        return Bugs.parse(String.join(",", names));
    }

    private static void requireBugsAllowed(SystemUnderTest system, String flags) {
        if (system != SystemUnderTest.FLE) {
            // the rule itself is ClusterConfig's; this says it in the CLI's words
            throw new IllegalArgumentException("bug: only the fle nodes have bug flags (--system fle); "
                    + system.id() + " runs as released, got --bug " + flags);
        }
    }

    /** A backend written as config.json spells it: its name. */
    static final class BackendName extends StdConverter<ClusterBackend, String> {
        @Override
        public String convert(ClusterBackend backend) {
            return backend.name();
        }
    }

    /** Bug flags written as config.json spells them (a list of names), when a part is shown as JSON. */
    static final class BugNames extends StdConverter<Bugs, List<String>> {
        @Override
        public List<String> convert(Bugs bugs) {
            return bugs.enabled().stream().sorted().map(Bug::flag).toList();
        }
    }
}
