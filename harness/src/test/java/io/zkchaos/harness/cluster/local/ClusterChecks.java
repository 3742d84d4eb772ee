package io.zkchaos.harness.cluster.local;

import io.zkchaos.harness.cluster.server.NodeLayout;
import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.harness.process.ProcessMarkers;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/** Assertions about what a cluster leaves behind and how its peers are connected. */
final class ClusterChecks {

    private ClusterChecks() {
    }

    /** After close: no server process of the run is alive and every proxy listen address binds again. */
    static void assertNothingLeft(LocalCluster cluster, List<Long> pids, List<InetSocketAddress> proxyPorts) {
        for (long pid : pids) {
            assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).as("server pid %d alive", pid).isEmpty();
        }
        assertThat(ProcessHandle.allProcesses()
                .filter(p -> ProcessMarkers.cmdline(p.pid()).contains(ProcessMarkers.RUN + cluster.runId())))
                .as("processes carrying run marker %s", cluster.runId()).isEmpty();
        for (InetSocketAddress a : proxyPorts) {
            try (ServerSocket s = new ServerSocket()) {
                s.bind(a);
            } catch (IOException e) {
                throw new AssertionError("proxy port " + a + " still bound after close", e);
            }
        }
    }

    /** No live process has {@code dir} in its command line (a server of a run under it would: its config path). */
    static void assertNoProcessUnder(java.nio.file.Path dir) {
        String d = dir.toAbsolutePath().toString();
        assertThat(ProcessHandle.allProcesses()
                .filter(p -> p.pid() != ProcessHandle.current().pid())
                .filter(p -> ProcessMarkers.cmdline(p.pid()).stream().anyMatch(a -> a.contains(d)))
                .map(ProcessHandle::pid))
                .as("processes running from %s", d).isEmpty();
    }

    static List<Long> pids(LocalCluster cluster) {
        List<Long> pids = new ArrayList<>();
        cluster.nodes().forEach(n -> pids.add(cluster.pid(n)));
        return pids;
    }

    /**
     * No server holds a connection straight to another server's quorum or election port: every peer connection
     * goes through a proxy link (whose addresses are not node addresses).
     */
    static void assertPeersOnlyThroughProxies(LocalCluster cluster) throws IOException {
        List<NodeLayout> layouts = cluster.layouts();
        for (NodeLayout self : layouts) {
            long pid = cluster.pid(self.name());
            if (pid < 0) {
                continue;
            }
            for (InetSocketAddress remote : Sockets.remotes(pid)) {
                for (NodeLayout other : layouts) {
                    boolean direct = other.id() != self.id()
                            && remote.getAddress().getHostAddress().equals(other.address())
                            && (remote.getPort() == other.quorumPort() || remote.getPort() == other.electionPort());
                    assertThat(direct).as("%s connected directly to %s at %s", self.name(), other.name(), remote)
                            .isFalse();
                }
            }
        }
    }
}
