package io.zkchaos.harness.cluster.ssh;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.harness.cluster.Cluster;
import io.zkchaos.harness.process.ProcessMarkers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Set;
import java.util.List;
import java.util.stream.Stream;

/** What the ssh backend's tests check on the namespace hosts: that nothing of a cluster is left, where its faults are. */
final class SshChecks {

    private SshChecks() {
    }

    /** Notes the cluster's servers and run; the check, run after close, fails naming anything of it left anywhere. */
    static Runnable leftoverCheck(Cluster c, NamespaceHosts hosts) {
        SshCluster cluster = (SshCluster) c;
        String runId = cluster.runId();
        List<Long> pids = new ArrayList<>();
        cluster.nodes().forEach(n -> pids.add(cluster.pid(n)));
        Path remoteRun = hosts.remoteDirectory().resolve("runs").resolve(runId);
        Path localRun = cluster.runDirectory();
        int nodes = cluster.nodes().size();
        return () -> {
            for (long pid : pids) {
                assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
                        .as("server pid %d of run %s alive after close", pid, runId).isFalse();
            }
            assertThat(processesOf(runId)).as("processes of run %s", runId).isEmpty();
            assertNoRulesOrShaping(hosts, runId);
            assertThat(remoteRun).as("the run's directory on the hosts").doesNotExist();
            for (int i = 1; i <= nodes; i++) {
                assertThat(localRun.resolve("n" + i).resolve("server.log")).as("n%d's log, copied here", i)
                        .isNotEmptyFile();
            }
        };
    }

    /**
     * The hosts' equivalent of "every peer connection through the proxy": the hosts' iptables hold exactly the rules
     * the links ask for, and every quorum or election connection a host has is between two hosts' own addresses (so
     * the hosts' rules see it), with at least one such connection in all.
     */
    static void assertPeersOnlyThroughHostRules(SshCluster cluster, NamespaceHosts hosts) {
        assertThat(cluster.firewallDivergences()).as("the hosts' rules vs the links'").isEmpty();
        Set<String> addresses = new HashSet<>();
        for (int i = 1; i <= hosts.size(); i++) {
            addresses.add(hosts.address(i));
        }
        int peerConnections = 0;
        for (int i = 1; i <= cluster.nodes().size(); i++) {
            for (String line : hosts.inHost(i, "ss", "-Htn", "state", "established").split("\n")) {
                String[] f = line.trim().split("\\s+");
                if (f.length < 4) {
                    continue;
                }
                String local = f[f.length - 2];
                String peer = f[f.length - 1];
                if (isPeerPort(local) || isPeerPort(peer)) {
                    peerConnections++;
                    assertThat(addresses).as("h%d's peer connection %s -> %s: both ends hosts' own addresses", i,
                            local, peer).contains(host(local), host(peer));
                }
            }
        }
        assertThat(peerConnections).as("quorum and election connections between the hosts").isPositive();
    }

    private static boolean isPeerPort(String address) {
        return address.endsWith(":" + SshCluster.QUORUM_PORT) || address.endsWith(":" + SshCluster.ELECTION_PORT);
    }

    /** The address of {@code ss}'s {@code address:port}, an IPv4-mapped one ({@code [::ffff:10.0.0.1]}) as IPv4. */
    private static String host(String address) {
        String host = address.substring(0, address.lastIndexOf(':'));
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        return host.startsWith("::ffff:") ? host.substring("::ffff:".length()) : host;
    }

    /** Fails if a chain of the running {@code runId} holds a rule on any host, or any host shapes traffic. */
    static void assertHealed(NamespaceHosts hosts, String runId) {
        String rule = "-A " + HostFirewall.CHAIN_PREFIX + HostFirewall.tag(runId);
        for (int i = 1; i <= hosts.size(); i++) {
            assertThat(hosts.inHost(i, "iptables", "-w", "-S")).as("iptables of h%d after the heal", i)
                    .contains(HostFirewall.CHAIN_PREFIX + HostFirewall.tag(runId)).doesNotContain(rule);
            assertThat(hosts.inHost(i, "tc", "qdisc", "show")).as("queueing of h%d after the heal", i)
                    .doesNotContain(HostShaper.HANDLE + ":");
        }
    }

    /** Fails if any host holds a chain of {@code runId} (any run's, for null) or zk-chaos's traffic shaping. */
    static void assertNoRulesOrShaping(NamespaceHosts hosts, String runId) {
        String chain = runId == null ? HostFirewall.CHAIN_PREFIX : HostFirewall.CHAIN_PREFIX
                + HostFirewall.tag(runId);
        for (int i = 1; i <= hosts.size(); i++) {
            assertThat(hosts.inHost(i, "iptables", "-w", "-S")).as("iptables of h%d", i).doesNotContain(chain);
            assertThat(hosts.inHost(i, "tc", "qdisc", "show")).as("queueing of h%d", i)
                    .doesNotContain(HostShaper.HANDLE + ":");
        }
    }

    /** The pids of the processes of this machine (the namespace hosts share its pids) that carry {@code runId}. */
    static List<Long> processesOf(String runId) {
        try (Stream<ProcessHandle> all = ProcessHandle.allProcesses()) {
            return all.filter(p -> ProcessMarkers.of(p.pid()).run().filter(runId::equals).isPresent())
                    .map(ProcessHandle::pid).toList();
        }
    }

    /** The run id a cluster's run directory names ({@code run.properties}, written at its start). */
    static String runIdOf(Path runDirectory) {
        try {
            return Files.readAllLines(runDirectory.resolve("run.properties")).stream().filter(l -> l.startsWith("run="))
                    .map(l -> l.substring(4)).findFirst().orElseThrow(() -> new AssertionError("no run= in "
                            + runDirectory.resolve("run.properties")));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Whether process {@code pid} has ended: gone from /proc, or a zombie its parent has not reaped yet. */
    static boolean gone(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
        } catch (java.io.IOException e) {
            return true;
        }
    }

    /** Whether process {@code pid} is stopped (SIGSTOP): its state in /proc is {@code T}. */
    static boolean stopped(long pid) throws Exception {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        return stat.substring(stat.lastIndexOf(')') + 2).startsWith("T");
    }
}
