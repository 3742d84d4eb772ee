package io.zkchaos.harness.cluster.ssh;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.harness.cluster.ssh.FirewallRule.Chain;
import io.zkchaos.harness.cluster.ssh.FirewallRule.Verdict;
import io.zkchaos.harness.process.Owner;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The text the ssh backend writes to hosts and reads back: rules, jumps, marks, the reaper's plan, tc leaves. */
class HostRulesTest {

    @Test
    void rulesReadAsIptablesPrintsThem() {
        assertThat(new FirewallRule("n2", Chain.IN, "10.0.0.1", 2888, true, Verdict.DROP).line("zkc-ab12cd34-in"))
                .isEqualTo("-A zkc-ab12cd34-in -s 10.0.0.1/32 -p tcp -m tcp --dport 2888 -j DROP");
        assertThat(new FirewallRule("n1", Chain.OUT, null, 2181, false, Verdict.RESET).line("zkc-x-out"))
                .isEqualTo("-A zkc-x-out ! -o lo -p tcp -m tcp --sport 2181 ! --tcp-flags RST RST -j REJECT "
                        + "--reject-with tcp-reset");
        assertThat(new FirewallRule("n1", Chain.IN, null, 2181, true, Verdict.DROP, 0.25).line("c"))
                .isEqualTo("-A c ! -i lo -p tcp -m tcp --dport 2181 -m statistic --mode random --probability "
                        + "0.25000000 -j DROP");
    }

    @Test
    void aJumpOfZkChaosIsKnownByItsChainAndComment() {
        String line = "-A INPUT -m comment --comment \"zkchaos run=run-1a2b3c4d owner=42@1700000000000 "
                + "controller=box\" -j zkc-1a2b3c4d-in";
        HostFirewall.Jump j = HostFirewall.Jump.parse(line).orElseThrow();
        assertThat(j.from()).isEqualTo("INPUT");
        assertThat(j.chain()).isEqualTo("zkc-1a2b3c4d-in");
        assertThat(j.marks()).isEqualTo(new RemoteMarkers("run-1a2b3c4d", Optional.of(new Owner(42, 1700000000000L)),
                "box"));
        assertThat(HostFirewall.Jump.parse("-A INPUT -j DOCKER-USER")).isEmpty();
        assertThat(HostFirewall.Jump.parse("-A INPUT -m comment --comment \"other\" -j zkc-x-in")).isEmpty();
        assertThat(HostFirewall.tag("store-20250101-000000-1a2b3c4d")).isEqualTo("1a2b3c4d");
    }

    @Test
    void marksOnACommandLineAndInWordsReadBackAsTheyWereWritten() {
        RemoteMarkers m = RemoteMarkers.current("run-00ff00ff");
        List<String> args = new java.util.ArrayList<>(m.arguments());
        args.add("-Dzkchaos.process=server");
        args.add("org.apache.zookeeper.server.quorum.QuorumPeerMain");
        assertThat(RemoteMarkers.ofCommandLine(args)).contains(m);
        assertThat(RemoteMarkers.ofWords(m.words())).contains(m);
        assertThat(m.heldByLiveHarness()).as("this JVM is alive").isTrue();
        assertThat(m.orphaned()).isFalse();
        RemoteMarkers dead = new RemoteMarkers("r", Optional.of(new Owner(Integer.MAX_VALUE, 1)),
                RemoteMarkers.controllerName());
        assertThat(dead.orphaned()).isTrue();
        RemoteMarkers elsewhere = new RemoteMarkers("r", Optional.of(new Owner(Integer.MAX_VALUE, 1)),
                "another-machine");
        assertThat(elsewhere.orphaned()).as("only this machine can tell whether its harness is gone").isFalse();
        assertThat(elsewhere.heldByLiveHarness()).isFalse();
        assertThat(RemoteMarkers.ofCommandLine(List.of("java", "-Dzkchaos.run=x", "Main")))
                .as("a process without a role marker is not one of ours").isEmpty();
        assertThat(RemoteMarkers.ofCommandLine(List.of("java", "-Dzkchaos.run=x", "-Dzkchaos.owner="
                + Integer.MAX_VALUE + "@1", "-Dzkchaos.process=server", "Main")))
                .as("a local backend's server on the host (no controller) is its own harness's to judge").isEmpty();
    }

    @Test
    void theReaperEndsWhatItsRuleAcceptsAndShapingOnlyWhenNoLiveChainIsLeft() {
        String dead = "owner=" + Integer.MAX_VALUE + "@1 controller=" + RemoteMarkers.controllerName();
        String live = "owner=" + Owner.current() + " controller=" + RemoteMarkers.controllerName();
        Map<String, List<String>> survey = Map.of(
                "processes", List.of("4242\tjava\t-Dzkchaos.run=run-a\t-Dzkchaos.owner=" + Integer.MAX_VALUE + "@1\t"
                        + "-Dzkchaos.controller=" + RemoteMarkers.controllerName() + "\t-Dzkchaos.process=server\t",
                        "4343\tjava\t-Dzkchaos.run=run-b\t-Dzkchaos.owner=" + Owner.current() + "\t-Dzkchaos.controller="
                                + RemoteMarkers.controllerName() + "\t-Dzkchaos.process=server\t",
                        "4444\tjava\t-Dzkchaos.run=nodes-c\t-Dzkchaos.owner=" + Integer.MAX_VALUE + "@1\t"
                                + "-Dzkchaos.process=server\t"),
                "jumps", List.of("-P INPUT ACCEPT",
                        "-A INPUT -m comment --comment \"zkchaos run=run-a " + dead + "\" -j zkc-runa-in",
                        "-A OUTPUT -m comment --comment \"zkchaos run=run-b " + live + "\" -j zkc-runb-out"),
                "shaping", List.of("2"),
                "base", List.of("/home/u/zkchaos"),
                "runs", List.of("/home/u/zkchaos/runs/run-a\trun=run-a " + dead,
                        "/home/u/zkchaos/runs/run-b\trun=run-b " + live));
        HostReaper.Plan orphans = HostReaper.plan(survey, RemoteMarkers::orphaned);
        assertThat(orphans.ended()).containsExactly("process 4242 of run run-a", "iptables chain zkc-runa-in of run "
                + "run-a", "run directory /home/u/zkchaos/runs/run-a");
        assertThat(orphans.script()).contains("kill -KILL 4242").contains("-j zkc-runa-in")
                .contains("rm -rf '/home/u/zkchaos/runs/run-a'").doesNotContain("4343").doesNotContain("tc qdisc del");
        assertThat(HostReaper.plan(survey, m -> true).script()).as("a local backend's server is never ended")
                .doesNotContain("4444");
        HostReaper.Plan all = HostReaper.plan(Map.of("jumps", survey.get("jumps"), "shaping", List.of("2")),
                m -> true);
        assertThat(all.ended()).contains("traffic shaping (2 queueing discipline(s) of zk-chaos)");
        assertThat(HostReaper.plan(Map.of(), m -> true).script()).isEmpty();
    }

    @Test
    void aHostThatCannotShapeSaysWhyAndLatencyWithBandwidthIsOneNetemLeaf() {
        HostShaper none = HostShaper.of(null, List.of("netem Error: Specified qdisc kind is unknown.", "tbf ok",
                "htb ok"));
        assertThat(none.describe()).isEqualTo("netem missing, tbf yes, htb yes");
        assertThat(HostShaper.of(null, List.of("tc: not installed (iproute2)")).describe())
                .isEqualTo("netem missing, tbf missing, htb missing");
        assertThat(HostShaper.leaf(List.of(io.zkchaos.nemesis.net.Toxic.latency("l", io.zkchaos.nemesis.net.Stream
                .UPSTREAM, 50, 10), io.zkchaos.nemesis.net.Toxic.bandwidth("b", io.zkchaos.nemesis.net.Stream
                .UPSTREAM, 100)))).isEqualTo("netem delay 50ms 10ms rate 800kbit");
        assertThat(HostShaper.leaf(List.of(io.zkchaos.nemesis.net.Toxic.bandwidth("b", io.zkchaos.nemesis.net.Stream
                .UPSTREAM, 20)))).isEqualTo("tbf rate 160kbit burst 32kbit latency 400ms");
    }
}
