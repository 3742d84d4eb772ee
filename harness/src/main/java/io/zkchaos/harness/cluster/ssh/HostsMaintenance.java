package io.zkchaos.harness.cluster.ssh;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * What {@code ./zkchaos hosts} does to the hosts of a hosts file, outside any run: {@link #heal} ends what harnesses
 * left there, {@link #check} says whether each host has what the ssh backend needs.
 */
public final class HostsMaintenance {

    private HostsMaintenance() {
    }

    /**
     * Connects to every host and ends what zk-chaos left there — servers, iptables chains, traffic shaping, run
     * directories — except what a harness of this machine that still runs holds ({@link HostReaper}).
     *
     * @return per host (as {@code n1 (host)}), what was ended, one line each (empty: nothing was left); or the error
     *         that host gave
     * @throws IllegalStateException naming the hosts that cannot be reached
     */
    public static Map<String, List<String>> heal(SshSettings settings) {
        return onEveryHost(settings, s -> HostReaper.reap(s, settings.remoteDirectory(),
                m -> !m.heldByLiveHarness()));
    }

    /**
     * Connects to every host and says what it has: its name, the JRE, iptables, root, what its kernel can shape,
     * libfaketime (for the clock faults), and what it lacks ({@code problem: ...} lines).
     *
     * @return per host, its facts, one line each
     * @throws IllegalStateException naming the hosts that cannot be reached
     */
    public static Map<String, List<String>> check(SshSettings settings) {
        return onEveryHost(settings, s -> {
            HostFacts f = HostFacts.look(s, settings);
            List<String> lines = new ArrayList<>();
            lines.add("host name " + f.hostName() + ", address " + s.address() + ", sees the harness as "
                    + f.harness());
            lines.add("java: " + (f.java() == null ? "missing" : f.java()));
            lines.add("iptables: " + (f.iptables() == null ? "missing" : f.iptables()) + "; user id " + f.uid()
                    + (f.sudo() ? " (sudo works)" : ""));
            lines.add("traffic control: " + HostShaper.of(s, f.sections().getOrDefault("tc", List.of())).describe());
            lines.add("libfaketime: " + (f.faketime() == null ? "missing (the clock faults need it: install the "
                    + "package libfaketime)" : f.faketime()));
            lines.add("remote directory " + f.base() + " (" + f.jars().size() + " jar(s) kept)");
            f.problems(settings, false).forEach(p -> lines.add("problem: " + p));
            return lines;
        });
    }

    private interface Step {
        List<String> on(HostSession s);
    }

    private static Map<String, List<String>> onEveryHost(SshSettings settings, Step step) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        try (SshHosts hosts = SshHosts.connect(settings, settings.hosts().size())) {
            Map<String, CompletableFuture<List<String>>> running = new LinkedHashMap<>();
            hosts.sessions().forEach((node, s) -> running.put(s.describe(),
                    CompletableFuture.supplyAsync(() -> step.on(s))));
            running.forEach((host, f) -> {
                try {
                    out.put(host, f.join());
                } catch (CompletionException e) {
                    out.put(host, List.of("error: " + (e.getCause() == null ? e : e.getCause().getMessage())));
                }
            });
        }
        return out;
    }
}
