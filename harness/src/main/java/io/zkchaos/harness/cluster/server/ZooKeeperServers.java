package io.zkchaos.harness.cluster.server;

import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.zookeeper.ServerClasspath;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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
    public Map<String, String> files(ClusterConfig config, NodeLayout self, List<NodeLayout> all,
                                     PeerRouting routing) {
        return ServerFiles.files(config, self, all, routing);
    }

    @Override
    public Launch launch(ClusterConfig config, NodeLayout n) {
        List<String> options = new ArrayList<>();
        options.add("-Dlogback.configurationFile=" + n.dir().resolve("logback.xml"));
        options.add("-Dlog4j.configuration=" + n.dir().resolve("log4j.properties").toUri()); // before 3.8
        options.add("-Dzookeeper.log.dir=" + n.dir());
        options.add("-Dzookeeper.admin.enableServer=false");
        options.add("-Dzookeeper.fastleader.maxNotificationInterval=" + config.maxElectionBackoff().toMillis());
        options.addAll(config.sync().jvmOptions(config.version()));
        return new Launch(ServerKind.jvmOptions(config, n, options), classpath.jars(), MAIN_CLASS,
                List.of(n.dir().resolve("zoo.cfg").toString()));
    }
}
