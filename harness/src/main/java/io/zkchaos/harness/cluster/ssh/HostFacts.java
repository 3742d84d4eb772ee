package io.zkchaos.harness.cluster.ssh;

import io.zkchaos.harness.process.Libfaketime;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the harness learns of a host in one command ({@link #look}): its remote directory, its name, the harness's
 * address as it sees it, whether it has what the backend needs (a JRE, iptables, root or sudo), which jars it has, what
 * killed harnesses left there ({@link HostReaper#survey}), what its kernel can shape
 * ({@link HostShaper#probeScript}) and where its libfaketime is ({@link #faketimeProbe}: the clock faults preload it).
 *
 * @param base     the remote directory, absolute (created if missing)
 * @param hostName the host's own name (its servers resolve it)
 * @param harness  the harness's address as the host sees it (from {@code SSH_CONNECTION})
 * @param uid      the user's id there
 * @param java     the path of the JRE's {@code java}, or null when there is none
 * @param iptables the path of {@code iptables-restore}, or null
 * @param sudo     whether {@code sudo -n} works (asked only with {@code --sudo})
 * @param faketime the path of libfaketime's {@value Libfaketime#LIBRARY}, or null when the host has none
 * @param sections every section the command printed: {@code lib}, the survey's, {@code tc}
 */
record HostFacts(String base, String hostName, String harness, String uid, String java, String iptables,
                 boolean sudo, String faketime, Map<String, List<String>> sections) {

    /** Runs the one command on {@code s} and reads what it printed. */
    static HostFacts look(HostSession s, SshSettings settings) {
        String dir = Shell.quote(settings.remoteDirectory());
        String script = "mkdir -p " + dir + " && cd " + dir + " || exit 3\n"
                + "echo '== facts'\npwd\nhostname\necho \"${SSH_CONNECTION%% *}\"\nid -u\n"
                + "command -v " + Shell.quote(settings.java()) + " || echo -\n"
                + "command -v iptables-restore || command -v /usr/sbin/iptables-restore || command -v "
                + "/sbin/iptables-restore || echo -\n"
                + (settings.sudo() ? "sudo -n true 2>/dev/null && echo sudo || echo -\n" : "echo -\n")
                + faketimeProbe(Libfaketime.candidates()) + "\n"
                + "echo '== lib'\nls -1 lib 2>/dev/null\n"
                + s.asRoot("sh -c " + Shell.quote(HostReaper.survey(settings.remoteDirectory()))) + "\n"
                + "echo '== tc'\n" + s.asRoot("sh -c " + Shell.quote(HostShaper.probeScript())) + "\n";
        HostSession.Result r = s.exec("sh -s", script.getBytes(StandardCharsets.UTF_8), HostSession.COMMAND_TIMEOUT)
                .require(s, "looking at " + settings.remoteDirectory());
        Map<String, List<String>> sections = r.sections();
        List<String> f = sections.getOrDefault("facts", List.of());
        if (f.size() < 8) {
            throw new IllegalStateException(s.describe() + " answered what the harness cannot read: " + r.out());
        }
        return new HostFacts(f.get(0).trim(), f.get(1).trim(), f.get(2).trim(), f.get(3).trim(), path(f.get(4)),
                path(f.get(5)), f.get(6).trim().equals("sudo"), path(f.get(7)), sections);
    }

    /**
     * A command printing the first of {@code candidates} the user can read, or {@code -} when none (a subshell: its
     * {@code exit} ends only the search).
     */
    static String faketimeProbe(List<String> candidates) {
        return "(for f in " + Shell.command(candidates) + "; do if [ -r \"$f\" ]; then echo \"$f\"; exit 0; fi; done; "
                + "echo -)";
    }

    private static String path(String line) {
        return line.trim().equals("-") ? null : line.trim();
    }

    /**
     * What the host lacks for the ssh backend, each said with how to mend it; empty when it has all.
     *
     * @param clocks whether the run moves the servers' clocks (then the host needs libfaketime)
     */
    List<String> problems(SshSettings settings, boolean clocks) {
        List<String> p = new ArrayList<>();
        if (java == null) {
            p.add("no " + settings.java() + ": the ssh backend needs a JRE (Java 11 or later) on every host "
                    + "(--remote-java names another command)");
        }
        if (iptables == null) {
            p.add("no iptables: the ssh backend makes partitions with it (install iptables)");
        }
        if (!uid.equals("0") && !sudo) {
            p.add("user " + uid + " is not root" + (settings.sudo() ? " and cannot run sudo without a password" : "")
                    + "; iptables and tc need root (log in as root, or allow sudo without a password and pass --sudo)");
        }
        if (clocks && faketime == null) {
            p.add("no libfaketime: the clock faults preload it into the servers (install the package libfaketime; "
                    + "looked for " + Libfaketime.candidates() + ")");
        }
        return p;
    }

    /** The jars the host has in its {@code lib/}. */
    List<String> jars() {
        return sections.getOrDefault("lib", List.of());
    }
}
