package io.zkchaos.harness.cluster.ssh;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A run's iptables rules on one host, in two chains of the run's own ({@code zkc-<tag>-in} from {@code INPUT},
 * {@code zkc-<tag>-out} from {@code OUTPUT}), so that healing is emptying them and nothing else of the host's firewall
 * is touched. The jump rules that lead to them carry the run's {@link RemoteMarkers} as their comment: that is how a
 * later harness, or {@code hosts heal}, finds the chains of a harness that was killed ({@link HostReaper}).
 *
 * <p>{@link #apply} replaces the chains' rules at once ({@code iptables-restore --noflush}): the host never holds half
 * of a partition.
 */
final class HostFirewall {

    /** What names every chain of zk-chaos on a host. */
    static final String CHAIN_PREFIX = "zkc-";

    private final HostSession host;
    private final String in;
    private final String out;
    private final RemoteMarkers marks;
    private List<String> applied = List.of();

    HostFirewall(HostSession host, RemoteMarkers marks) {
        this.host = host;
        this.marks = marks;
        String tag = tag(marks.run());
        this.in = CHAIN_PREFIX + tag + "-in";
        this.out = CHAIN_PREFIX + tag + "-out";
    }

    /** The last 8 characters of a run id (its random part): what names its chains. */
    static String tag(String runId) {
        String clean = runId.replaceAll("[^A-Za-z0-9]", "");
        return clean.substring(Math.max(0, clean.length() - 8));
    }

    /** The chain a rule of {@code chain} sits in. */
    String chainName(FirewallRule.Chain chain) {
        return chain == FirewallRule.Chain.IN ? in : out;
    }

    /** The command that creates the two chains and the jumps to them, first in {@code INPUT} and {@code OUTPUT}. */
    String installCommand() {
        String comment = Shell.quote(RemoteMarkers.COMMENT_PREFIX + " " + marks.words());
        return "iptables -w -N " + in + " && iptables -w -N " + out + " && iptables -w -I INPUT 1 -m comment --comment "
                + comment + " -j " + in + " && iptables -w -I OUTPUT 1 -m comment --comment " + comment + " -j " + out;
    }

    /**
     * Makes the chains hold exactly {@code rules} (this host's), in one step; does nothing when they hold them
     * already.
     */
    synchronized void apply(List<FirewallRule> rules) {
        List<String> lines = rules.stream().map(r -> r.line(chainName(r.chain()))).toList();
        if (lines.equals(applied)) {
            return;
        }
        StringBuilder restore = new StringBuilder("*filter\n:" + in + " - [0:0]\n:" + out + " - [0:0]\n");
        lines.forEach(l -> restore.append(l).append('\n'));
        restore.append("COMMIT\n");
        host.execPrivileged("iptables-restore -w --noflush", restore.toString().getBytes(StandardCharsets.UTF_8))
                .require(host, "setting the run's iptables rules");
        applied = lines;
    }

    /** The rules the host's chains hold now, as {@code iptables -S} prints them. */
    List<String> read() {
        HostSession.Result r = host.execPrivileged("iptables -w -S " + in + " && iptables -w -S " + out)
                .require(host, "reading the run's iptables rules");
        List<String> rules = new ArrayList<>();
        for (String line : r.out().split("\n")) {
            if (line.startsWith("-A ")) {
                rules.add(line.trim());
            }
        }
        return rules;
    }

    /** Empties and removes the chains and the jumps to them; what is already gone is skipped. */
    void remove() {
        String comment = Shell.quote(RemoteMarkers.COMMENT_PREFIX + " " + marks.words());
        host.execPrivileged(removal(comment, in, "INPUT") + "; " + removal(comment, out, "OUTPUT") + "; true");
        applied = List.of();
    }

    /** The commands that remove one chain and its jump (each may fail harmlessly when already gone). */
    static String removal(String quotedComment, String chain, String from) {
        return "iptables -w -D " + from + " -m comment --comment " + quotedComment + " -j " + chain
                + " 2>/dev/null; iptables -w -F " + chain + " 2>/dev/null; iptables -w -X " + chain + " 2>/dev/null";
    }

    /**
     * A jump rule of zk-chaos as {@code iptables -S INPUT} (or {@code OUTPUT}) prints it: the chain it leads to and the
     * marks of its comment.
     */
    record Jump(String from, String chain, String comment, RemoteMarkers marks) {

        /** Parses a line of {@code iptables -S}; empty when it is not a jump of zk-chaos. */
        static Optional<Jump> parse(String line) {
            String[] w = line.trim().split("\\s+");
            if (w.length < 2 || !w[0].equals("-A")) {
                return Optional.empty();
            }
            int j = List.of(w).indexOf("-j");
            int c = line.indexOf("--comment");
            if (j < 0 || j + 1 >= w.length || !w[j + 1].startsWith(CHAIN_PREFIX) || c < 0) {
                return Optional.empty();
            }
            String rest = line.substring(c + "--comment".length()).trim();
            String comment;
            if (rest.startsWith("\"")) {
                int end = rest.indexOf('"', 1);
                comment = end < 0 ? rest.substring(1) : rest.substring(1, end);
            } else {
                comment = rest.split("\\s+")[0];
            }
            if (!comment.startsWith(RemoteMarkers.COMMENT_PREFIX + " ")) {
                return Optional.empty();
            }
            return RemoteMarkers.ofWords(comment.substring(RemoteMarkers.COMMENT_PREFIX.length()))
                    .map(m -> new Jump(w[1], w[j + 1], comment, m));
        }
    }
}
