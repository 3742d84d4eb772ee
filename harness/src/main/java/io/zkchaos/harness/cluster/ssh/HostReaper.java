package io.zkchaos.harness.cluster.ssh;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Ends what harnesses left on a host — their servers, their iptables chains, their traffic shaping, their run
 * directories — when {@link RemoteMarkers} say so: at every start the {@linkplain RemoteMarkers#orphaned orphans}
 * (the harness that made them, on this machine, no longer runs), and with {@code hosts heal} everything not
 * {@linkplain RemoteMarkers#heldByLiveHarness held by a live harness} of this machine.
 *
 * <ul>
 *   <li>processes: every process of the host whose command line carries a run marker and a role marker
 *       (read from {@code /proc/<pid>/cmdline}), ended with SIGKILL (which ends a frozen one too);</li>
 *   <li>chains: every jump of {@code INPUT} or {@code OUTPUT} to a {@code zkc-} chain whose comment carries the marks
 *       ({@link HostFirewall}), removed with its chain;</li>
 *   <li>traffic shaping: zk-chaos's root queueing disciplines ({@link HostShaper#HANDLE}), once no live harness's
 *       chain is left on the host (shaping carries no marks of its own);</li>
 *   <li>run directories: {@code <remote dir>/runs/<run>} whose {@code run.properties} carries the marks.</li>
 * </ul>
 */
final class HostReaper {

    /** Lists the marked processes: {@code <pid> TAB <arg> TAB <arg> ...} a line (the script never matches itself). */
    private static final String PROCESSES = "for f in /proc/[0-9]*/cmdline; do "
            + "if grep -qa -e '-Dzkchaos[.]run=' \"$f\" 2>/dev/null; then p=${f#/proc/}; printf '%s\\t' \"${p%/cmdline}\"; "
            + "tr '\\000' '\\t' < \"$f\" 2>/dev/null; echo; fi; done; true";

    private HostReaper() {
    }

    /**
     * Ends on {@code host} what {@code end} accepts, and says what it ended, one line each.
     *
     * @param base the host's remote directory (absolute), whose {@code runs/} holds run directories
     */
    static List<String> reap(HostSession host, String base, Predicate<RemoteMarkers> end) {
        List<String> ended = new ArrayList<>();
        for (String line : host.exec(PROCESSES).out().split("\n")) {
            String[] f = line.split("\t");
            if (f.length < 2) {
                continue;
            }
            Optional<RemoteMarkers> m = RemoteMarkers.ofCommandLine(Arrays.asList(f).subList(1, f.length));
            if (m.isPresent() && end.test(m.get())) {
                HostSession.Result r = host.execPrivileged("kill -KILL " + Long.parseLong(f[0].trim()));
                ended.add("process " + f[0].trim() + " of run " + m.get().run() + (r.ok() ? "" : " (kill failed: "
                        + r.err().strip() + ")"));
            }
        }
        boolean liveChains = false;
        HostSession.Result jumps = host.execPrivileged("iptables -w -S INPUT; iptables -w -S OUTPUT");
        for (String line : jumps.out().split("\n")) {
            Optional<HostFirewall.Jump> j = HostFirewall.Jump.parse(line);
            if (j.isEmpty()) {
                continue;
            }
            if (end.test(j.get().marks())) {
                host.execPrivileged(HostFirewall.removal(Shell.quote(j.get().comment()), j.get().chain(),
                        j.get().from()));
                ended.add("iptables chain " + j.get().chain() + " of run " + j.get().marks().run());
            } else {
                liveChains = true;
            }
        }
        if (!liveChains) {
            for (String dev : host.execPrivileged(HostShaper.clearAll()).out().split("\n")) {
                if (!dev.isBlank()) {
                    ended.add("traffic shaping on " + dev.trim());
                }
            }
        }
        String runs = base + "/runs";
        HostSession.Result props = host.exec("for f in " + Shell.quote(runs) + "/*/run.properties; do "
                + "[ -f \"$f\" ] && printf '%s\\t%s\\n' \"$(dirname \"$f\")\" \"$(tr '\\n' ' ' < \"$f\")\"; done; true");
        for (String line : props.out().split("\n")) {
            int tab = line.indexOf('\t');
            if (tab < 0) {
                continue;
            }
            String dir = line.substring(0, tab);
            Optional<RemoteMarkers> m = RemoteMarkers.ofWords(line.substring(tab + 1));
            if (m.isPresent() && end.test(m.get()) && dir.startsWith(runs + "/")) {
                host.exec("rm -rf " + Shell.quote(dir));
                ended.add("run directory " + dir);
            }
        }
        return ended;
    }
}
