package io.zkchaos.harness.cluster.local;

import io.zkchaos.harness.cluster.ClusterConfig;
import java.util.List;

/**
 * ZooKeeper servers: {@code QuorumPeerMain} of the resolved version, with the {@code zoo.cfg}, hosts file and
 * logging {@link ServerFiles} writes.
 */
final class ZooKeeperServers implements ServerKind {

    static final String MAIN_CLASS = "org.apache.zookeeper.server.quorum.QuorumPeerMain";

    private final ServerClasspath classpath;

    ZooKeeperServers(ServerClasspath classpath) {
        this.classpath = classpath;
    }

    @Override
    public String describe() {
        return "ZooKeeper " + classpath.version();
    }

    @Override
    public void writeFiles(ClusterConfig config, NodeLayout self, List<NodeLayout> all, PeerRouting routing) {
        ServerFiles.write(config, self, all, routing);
    }

    @Override
    public List<String> command(ClusterConfig config, NodeLayout n, String runId, Owner owner) {
        List<String> cmd = ServerKind.jvm(config, n, runId, owner);
        cmd.add("-Dlogback.configurationFile=" + n.dir().resolve("logback.xml"));
        cmd.add("-Dlog4j.configuration=" + n.dir().resolve("log4j.properties").toUri()); // before 3.8
        cmd.add("-Dzookeeper.log.dir=" + n.dir());
        cmd.add("-Dzookeeper.admin.enableServer=false");
        cmd.add("-Dzookeeper.fastleader.maxNotificationInterval=" + config.maxElectionBackoff().toMillis());
        config.zooKeeperVersion().ifPresent(v -> cmd.addAll(config.sync().jvmOptions(v)));
        cmd.add("-cp");
        cmd.add(classpath.asClasspathArgument());
        cmd.add(MAIN_CLASS);
        cmd.add(n.dir().resolve("zoo.cfg").toString());
        return cmd;
    }
}
