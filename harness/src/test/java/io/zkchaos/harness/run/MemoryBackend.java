package io.zkchaos.harness.run;

import io.zkchaos.harness.cluster.Capability;
import io.zkchaos.harness.cluster.Cluster;
import io.zkchaos.harness.cluster.ClusterBackend;
import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.ServerWatch;
import io.zkchaos.harness.cluster.NodeStatus;
import io.zkchaos.harness.cluster.SystemUnderTest;
import io.zkchaos.nemesis.NodeState;
import io.zkchaos.nemesis.RecordingSystem;
import io.zkchaos.nemesis.net.LinkNetwork;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A backend whose ensemble lives in memory: nodes and links of a {@link RecordingSystem}, no process and no socket.
 * Everything done to it goes to one timeline, {@link #events}, shared with the test's workload, so that a test can
 * read the order in which the run loop did things.
 */
final class MemoryBackend implements ClusterBackend {

    /** What happened, in order: {@code start}, {@code kill n2}, {@code quorum}, {@code close} ... */
    final List<String> events = new CopyOnWriteArrayList<>();
    final RecordingSystem system = new RecordingSystem(3);

    @Override
    public String name() {
        return "memory";
    }

    @Override
    public String description() {
        return "an ensemble in memory, for the run loop's tests";
    }

    @Override
    public Set<Capability> capabilities(SystemUnderTest s) {
        return EnumSet.of(Capability.RUNS);
    }

    @Override
    public Cluster start(ClusterConfig config) {
        events.add("start");
        return new MemoryCluster(config);
    }

    @Override
    public void reapLeftovers(Path storeRoot) {
        events.add("reap");
    }

    private final class MemoryCluster implements Cluster {
        private final ClusterConfig config;
        /** No processes to watch: a run records an empty servers file. */
        private final ServerWatch servers = ServerWatch.none();

        MemoryCluster(ClusterConfig config) {
            this.config = config;
        }

        @Override
        public ClusterConfig config() {
            return config;
        }

        @Override
        public String connectString() {
            return "memory:2181";
        }

        @Override
        public String connectString(String node) {
            return "memory-" + node + ":2181";
        }

        @Override
        public NodeState state(String node) {
            return system.state(node);
        }

        @Override
        public NodeStatus status(String node) {
            if (system.state(node) != NodeState.RUNNING) {
                return new NodeStatus(node, NodeStatus.Mode.UNREACHABLE, -1, "down");
            }
            boolean leads = system.leader().filter(node::equals).isPresent();
            return new NodeStatus(node, leads ? NodeStatus.Mode.LEADER : NodeStatus.Mode.FOLLOWER, 1L << 32, null);
        }

        @Override
        public Optional<String> leader() {
            return system.leader().filter(n -> system.state(n) == NodeState.RUNNING);
        }

        @Override
        public void awaitQuorum(Duration bound) {
            events.add("quorum");
        }

        /** The recovery probe's write: acknowledged while a majority runs. */
        @Override
        public boolean realServers() {
            return false; // no server process, log or client port: the system is in memory
        }

        @Override
        public String tryWrite(Duration timeout) {
            events.add("write probe");
            long running = system.nodes().stream().filter(n -> system.state(n) == NodeState.RUNNING).count();
            return running >= system.quorumSize() ? null : "no quorum (" + running + " running)";
        }

        @Override
        public void stop(String node) {
            events.add("stop " + node);
        }

        @Override
        public LinkNetwork links() {
            return system.links();
        }

        @Override
        public Path logFile(String node) {
            return config.runDirectory().resolve(node + ".log");
        }

        @Override
        public Path runDirectory() {
            return config.runDirectory();
        }

        @Override
        public ServerWatch servers() {
            return servers;
        }

        @Override
        public void close() {
            servers.close();
            events.add("close");
        }

        @Override
        public List<String> nodes() {
            return system.nodes();
        }

        @Override
        public void start(String node) {
            events.add("start " + node);
            system.start(node);
        }

        @Override
        public void kill(String node) {
            events.add("kill " + node);
            system.kill(node);
        }

        @Override
        public void pause(String node) {
            events.add("pause " + node);
            system.pause(node);
        }

        @Override
        public void resume(String node) {
            events.add("resume " + node);
            system.resume(node);
        }
    }
}
