package io.zkchaos.harness.cluster.server;

import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.ServerSettings;
import io.zkchaos.harness.cluster.ZooKeeperVersion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * One ZooKeeper server's files: {@code zoo.cfg}, {@code data/myid}, its private {@code hosts} file and
 * {@code logback.xml}.
 *
 * <p>The peer lines name peers by host name ({@code server.2=n2:<quorum>:<election>}), identical in every node's
 * {@code zoo.cfg}; the node's {@code hosts} file (read by the JVM through {@code -Djdk.net.hosts.file}) maps each
 * name to the address this node must use — its own bind address for itself, a proxy address for a peer. The
 * settings that make this work:
 * <ul>
 *   <li>{@code quorumListenOnAllIPs=false}: a server binds only its own address, so proxies can listen on the
 *       same port numbers on other loopback addresses;</li>
 *   <li>{@code multiAddress.enabled=false}: one address per peer, so the advertised election address is the
 *       single host name;</li>
 *   <li>{@code reconfigEnabled=false}: the membership never changes, and no dynamic config file is written that
 *       could carry resolved addresses from one node to another;</li>
 *   <li>{@code 4lw.commands.whitelist}: {@code srvr} and {@code mntr} for the harness;</li>
 *   <li>{@code admin.enableServer=false}: no Jetty admin server and no extra port.</li>
 * </ul>
 * Keys a release does not know are left out (3.4 has no {@code standaloneEnabled}, {@code reconfigEnabled},
 * {@code admin.enableServer}; before 3.6 no {@code multiAddress.enabled}); releases before 3.8 log with log4j 1.2,
 * so a {@code log4j.properties} with the same console format is written beside {@code logback.xml}
 * ({@link ServerLogging}). The docker backend renders its containers' {@code zoo.cfg} here too.
 */
public final class ServerFiles {

    private ServerFiles() {
    }

    /** The generated {@code zoo.cfg} settings of {@code self}, in order, extra settings last. */
    static Map<String, String> zooCfg(ClusterConfig config, NodeLayout self, List<NodeLayout> all) {
        return zooCfg(config, self, all, true);
    }

    /**
     * The one {@code zoo.cfg} of every backend: the settings of {@code self}, in order, extra settings last, each key
     * only for the releases that read it ({@link ZooKeeperVersion}). Paths are {@code self}'s ({@code dataDir} is
     * {@code <dir>/data}, wherever the node lives).
     *
     * @param bindOwnAddress whether the server binds its clients' port on {@link NodeLayout#address()} only
     *                       ({@code clientPortAddress}): true where servers share a machine; false for a server alone
     *                       in its container, which its published port reaches on any of the container's addresses
     */
    public static Map<String, String> zooCfg(ClusterConfig config, NodeLayout self, List<NodeLayout> all,
                                             boolean bindOwnAddress) {
        Map<String, String> cfg = new LinkedHashMap<>();
        cfg.put("tickTime", Long.toString(config.tickTime().toMillis()));
        cfg.put("initLimit", Integer.toString(config.initLimit()));
        cfg.put("syncLimit", Integer.toString(config.syncLimit()));
        cfg.put("dataDir", self.dir().resolve("data").toString());
        if (bindOwnAddress) {
            cfg.put("clientPortAddress", self.address());
        }
        cfg.put("clientPort", Integer.toString(self.clientPort()));
        cfg.put("minSessionTimeout", Long.toString(config.minSessionTimeout().toMillis()));
        cfg.put("maxSessionTimeout", Long.toString(config.maxSessionTimeout().toMillis()));
        cfg.put("maxClientCnxns", "0");
        // Keys a release does not know would become "zookeeper.<key>" system properties and be ignored; they are
        // left out so that each zoo.cfg holds only what its server reads.
        ZooKeeperVersion v = config.version();
        // read as system properties by 3.4.10+ and 3.5.3+ (earlier releases answer every four-letter word)
        cfg.put("4lw.commands.whitelist", "srvr,mntr,ruok,conf,stat,cons");
        if (v.hasStandaloneSwitch()) {
            cfg.put("admin.enableServer", "false");
        }
        if (v.hasReconfigSwitch()) {
            cfg.put("reconfigEnabled", "false");
        }
        cfg.put("quorumListenOnAllIPs", "false");
        if (v.hasMultiAddress()) {
            cfg.put("multiAddress.enabled", "false");
        }
        cfg.put("autopurge.purgeInterval", "0");
        if (all.size() > 1) {
            if (v.hasStandaloneSwitch()) {
                cfg.put("standaloneEnabled", "false");
            }
            for (NodeLayout n : all) {
                cfg.put("server." + n.id(), n.name() + ":" + n.quorumPort() + ":" + n.electionPort());
            }
        }
        cfg.putAll(serverSettings(config.server()));
        cfg.putAll(config.extraServerConfig());
        return cfg;
    }

    /**
     * The {@code zoo.cfg} lines of {@code s}: only what differs from ZooKeeper's own ({@code forceSync=no}, a
     * {@code snapCount}), so a default ensemble's file holds neither.
     */
    public static Map<String, String> serverSettings(ServerSettings s) {
        Map<String, String> cfg = new LinkedHashMap<>();
        if (!s.forceSync()) {
            cfg.put("forceSync", "no");
        }
        if (s.snapCount() != null) {
            cfg.put("snapCount", s.snapCount().toString());
        }
        return cfg;
    }

    /** Every file of {@code self} but its data, by path relative to its directory: see {@link ServerKind#files}. */
    static Map<String, String> files(ClusterConfig config, NodeLayout self, List<NodeLayout> all,
                                     PeerRouting routing) {
        Map<String, String> files = new LinkedHashMap<>();
        files.put("zoo.cfg", render("generated by zk-chaos for " + self.name(), zooCfg(config, self, all)));
        files.put("data/" + MYID, self.id() + "\n");
        files.put("hosts", hosts(self, all, routing));
        files.put(ServerLogging.LOGBACK_FILE, ServerLogging.logback());
        files.put(ServerLogging.LOG4J_FILE, ServerLogging.log4j());
        return files;
    }

    /** A {@code zoo.cfg}-style file: a comment line, then one {@code key=value} line per setting, in order. */
    public static String render(String comment, Map<String, String> settings) {
        StringBuilder out = new StringBuilder("# ").append(comment).append('\n');
        settings.forEach((k, v) -> out.append(k).append('=').append(v).append('\n'));
        return out.toString();
    }

    /** The file in a data directory that names the server in its ensemble, kept when the directory is emptied. */
    public static final String MYID = "myid";

    /**
     * Deletes everything in a server's data directory ({@code version-2/}: snapshots, logs, epochs) but its
     * {@value #MYID}, as a host re-imaged with its identity kept.
     */
    public static void emptyDataDirectory(Path data) {
        try (Stream<Path> files = Files.walk(data)) {
            for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                if (!f.equals(data) && !f.equals(data.resolve(MYID))) {
                    Files.delete(f);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot empty the data directory " + data, e);
        }
    }

    /** The node's private hosts file: its own name to its bind address, each peer's name to the routed one. */
    static String hosts(NodeLayout self, List<NodeLayout> all, PeerRouting routing) {
        StringBuilder h = new StringBuilder("# generated by zk-chaos: how " + self.name() + " reaches its peers\n");
        h.append("127.0.0.1 localhost\n");
        // Servers look up their own host name (e.g. for logging); keep that answerable.
        routing.machineName(self.id()).ifPresent(name -> h.append("127.0.0.1 ").append(name).append('\n'));
        for (NodeLayout n : all) {
            String ip = n.id() == self.id() ? self.address() : routing.peerAddress(self.id(), n.id());
            h.append(ip).append(' ').append(n.name()).append('\n');
        }
        return h.toString();
    }
}
