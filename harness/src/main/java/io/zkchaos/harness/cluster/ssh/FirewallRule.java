package io.zkchaos.harness.cluster.ssh;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One iptables rule of a run's chain on a host: which packets of one stream of one link it matches, and what it does
 * to them. Rendered in the form {@code iptables -S} prints, so that what a host holds can be compared with what the
 * links set.
 *
 * @param host        the node whose host holds the rule
 * @param chain       whether it sees packets coming in (the receiver of the stream) or going out (its sender)
 * @param source      the packets' source address (a peer), or null for any but the loopback interface (clients)
 * @param port        the TCP port matched
 * @param destination whether {@code port} is the packets' destination port (bytes to the link's server) or their
 *                    source port (bytes from it)
 * @param verdict     what happens to the packets (a reset lets resets through)
 * @param probability for {@link Verdict#DROP}: the share of packets dropped (1 for all; below 1 through iptables'
 *                    {@code statistic} match)
 */
record FirewallRule(String host, Chain chain, String source, int port, boolean destination, Verdict verdict,
                    double probability) {

    /** Where a rule sits. */
    enum Chain {
        IN, OUT
    }

    /** What a rule does: {@code DROP} (a black hole) or {@code REJECT --reject-with tcp-reset} (a reset). */
    enum Verdict {
        DROP, RESET
    }

    /** Every packet of the stream. */
    FirewallRule(String host, Chain chain, String source, int port, boolean destination, Verdict verdict) {
        this(host, chain, source, port, destination, verdict, 1.0);
    }

    /** The rule's arguments after {@code -A <chain>}, in {@code iptables -S}'s order. */
    List<String> arguments() {
        List<String> a = new ArrayList<>();
        if (source != null) {
            a.addAll(List.of("-s", source + "/32"));
        } else {
            a.addAll(List.of("!", chain == Chain.IN ? "-i" : "-o", "lo"));
        }
        a.addAll(List.of("-p", "tcp", "-m", "tcp", destination ? "--dport" : "--sport", Integer.toString(port)));
        if (verdict == Verdict.DROP && probability < 1.0) {
            a.addAll(List.of("-m", "statistic", "--mode", "random", "--probability",
                    String.format(Locale.ROOT, "%.8f", probability)));
        }
        if (verdict == Verdict.DROP) {
            a.addAll(List.of("-j", "DROP"));
        } else {
            // Resets pass: the kernel's own reset to a rejected packet goes out through OUTPUT, and a cut's rules on
            // either end would otherwise drop it (REJECT drops what it does not answer), leaving the peer to time
            // out instead of being refused.
            a.addAll(List.of("!", "--tcp-flags", "RST", "RST", "-j", "REJECT", "--reject-with", "tcp-reset"));
        }
        return a;
    }

    /** {@code -A <chain> ...}: the line for {@code iptables-restore}, and as {@code iptables -S} prints it. */
    String line(String chainName) {
        return "-A " + chainName + " " + String.join(" ", arguments());
    }
}
