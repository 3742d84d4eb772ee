package io.zkchaos.harness.cluster.ssh;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
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
 * One command looks ({@link #survey}, as root), one ends what the rule picked ({@link #plan}).
 */
final class HostReaper {

    private HostReaper() {
    }

    /**
     * The script that lists, in sections, what may be left on a host (to run as root): the marked processes, the
     * jumps of {@code INPUT} and {@code OUTPUT}, how many queueing disciplines of zk-chaos there are, and the run
     * directories under {@code remoteDirectory} (absolute, or relative to the login directory), after the absolute
     * path of that directory. The process listing never matches itself (its pattern is a bracket).
     */
    static String survey(String remoteDirectory) {
        return "echo '== processes'\n"
                + "for f in $(grep -l -a -e '-Dzkchaos[.]run=' /proc/[0-9]*/cmdline 2>/dev/null); do p=${f#/proc/}; "
                + "printf '%s\\t' \"${p%/cmdline}\"; tr '\\000' '\\t' < \"$f\" 2>/dev/null; echo; done\n"
                + "echo '== jumps'\n"
                + "iptables -w -S INPUT 2>/dev/null; iptables -w -S OUTPUT 2>/dev/null\n"
                + "echo '== shaping'\n"
                + "tc qdisc show 2>/dev/null | grep -c ' " + HostShaper.HANDLE + ": ' || true\n"
                + "echo '== base'\n"
                + "B=$(cd " + Shell.quote(remoteDirectory) + " 2>/dev/null && pwd) && echo \"$B\"\n"
                + "echo '== runs'\n"
                + "[ -n \"$B\" ] && for f in \"$B\"/runs/*/run.properties; do [ -f \"$f\" ] && "
                + "printf '%s\\t%s\\n' \"$(dirname \"$f\")\" \"$(tr '\\n' ' ' < \"$f\")\"; done\n"
                + "true\n";
    }

    /**
     * What to end, from the sections a {@link #survey} printed.
     *
     * @param commands the commands that end it (to run as root), in order
     * @param ended    what they end, one line each, for people
     */
    record Plan(List<String> commands, List<String> ended) {

        /** The commands as one script, or empty when there is nothing to end. */
        String script() {
            return commands.isEmpty() ? "" : String.join("\n", commands) + "\ntrue\n";
        }
    }

    /** Picks from a survey's {@code sections} what {@code end} accepts. */
    static Plan plan(Map<String, List<String>> sections, Predicate<RemoteMarkers> end) {
        String base = sections.getOrDefault("base", List.of()).stream().findFirst().orElse("").trim();
        List<String> commands = new ArrayList<>();
        List<String> ended = new ArrayList<>();
        for (String line : sections.getOrDefault("processes", List.of())) {
            String[] f = line.split("\t");
            Optional<RemoteMarkers> m = f.length < 2 ? Optional.empty()
                    : RemoteMarkers.ofCommandLine(Arrays.asList(f).subList(1, f.length));
            if (m.isPresent() && end.test(m.get()) && f[0].trim().matches("[0-9]+")) {
                // then waits (10 s at most) until it is gone or a zombie: its ports are free for the next server
                String pid = f[0].trim();
                commands.add("kill -KILL " + pid + " 2>/dev/null; i=0; while [ $i -lt 100 ] && [ -e /proc/" + pid
                        + " ] && ! grep -q '^State:[[:space:]]*Z' /proc/" + pid + "/status 2>/dev/null; do sleep 0.1; "
                        + "i=$((i+1)); done");
                ended.add("process " + f[0].trim() + " of run " + m.get().run());
            }
        }
        boolean liveChains = false;
        for (String line : sections.getOrDefault("jumps", List.of())) {
            Optional<HostFirewall.Jump> j = HostFirewall.Jump.parse(line);
            if (j.isPresent() && end.test(j.get().marks())) {
                commands.add(HostFirewall.removal(Shell.quote(j.get().comment()), j.get().chain(), j.get().from()));
                ended.add("iptables chain " + j.get().chain() + " of run " + j.get().marks().run());
            } else if (j.isPresent()) {
                liveChains = true;
            }
        }
        String shaping = sections.getOrDefault("shaping", List.of("0")).stream().findFirst().orElse("0").trim();
        if (!liveChains && shaping.matches("[1-9][0-9]*")) {
            commands.add(HostShaper.clearAll());
            ended.add("traffic shaping (" + shaping + " queueing discipline(s) of zk-chaos)");
        }
        for (String line : sections.getOrDefault("runs", List.of())) {
            int tab = line.indexOf('\t');
            Optional<RemoteMarkers> m = tab < 0 ? Optional.empty() : RemoteMarkers.ofWords(line.substring(tab + 1));
            if (m.isPresent() && end.test(m.get()) && !base.isEmpty() && line.startsWith(base + "/runs/")) {
                commands.add("rm -rf " + Shell.quote(line.substring(0, tab)));
                ended.add("run directory " + line.substring(0, tab));
            }
        }
        return new Plan(commands, ended);
    }

    /**
     * Ends on {@code host} what {@code end} accepts (two commands: a survey, then the plan), and says what it ended,
     * one line each.
     *
     * @param remoteDirectory the remote directory as the settings name it, whose {@code runs/} holds run directories
     */
    static List<String> reap(HostSession host, String remoteDirectory, Predicate<RemoteMarkers> end) {
        HostSession.Result survey = host.execPrivileged("sh -s", survey(remoteDirectory)
                .getBytes(StandardCharsets.UTF_8)).require(host, "looking for what killed harnesses left");
        Plan plan = plan(survey.sections(), end);
        if (!plan.commands().isEmpty()) {
            host.execPrivileged("sh -s", plan.script().getBytes(StandardCharsets.UTF_8))
                    .require(host, "ending what killed harnesses left");
        }
        return plan.ended();
    }
}
