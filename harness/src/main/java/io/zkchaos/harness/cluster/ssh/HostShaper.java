package io.zkchaos.harness.cluster.ssh;

import io.zkchaos.nemesis.net.Toxic;
import io.zkchaos.nemesis.net.ToxicType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Latency and bandwidth on the streams one host sends, with the host kernel's traffic control, as Jepsen slows links:
 * {@code tc netem} delays (with jitter, so packets may reorder), {@code tbf} limits the rate. Each shaped stream gets a
 * class of an {@code htb} root of the interface that carries it, picked by a {@code u32} filter on its destination
 * address and port (or its source port, for what a server sends its clients); everything else passes the default
 * class untouched. The root's handle ({@value #HANDLE}) marks it as zk-chaos's; healing deletes it, which gives the
 * interface its default queueing back.
 *
 * <p>Not every kernel has these: {@link #probe} tries each in a network namespace of its own ({@code unshare -n}), so
 * nothing of the host is touched, and a toxic the host cannot make is refused naming the host and what its kernel
 * answered.
 */
final class HostShaper {

    /** The handle of zk-chaos's root queueing discipline on an interface. */
    static final String HANDLE = "7a6b";

    /** What each facility needs, as a command run in a namespace of its own. */
    private static final Map<String, String> PROBES = new LinkedHashMap<>();

    static {
        PROBES.put("netem", "tc qdisc add dev lo root netem delay 1ms");
        PROBES.put("tbf", "tc qdisc add dev lo root tbf rate 1mbit burst 32kbit latency 400ms");
        PROBES.put("htb", "tc qdisc add dev lo root handle 1: htb && tc filter add dev lo parent 1: protocol ip prio 1 "
                + "u32 match ip dport 1 0xffff flowid 1:1");
    }

    private final HostSession host;
    /** Per facility, why the host cannot use it; absent when it can. */
    private final Map<String, String> missing;
    /** The interfaces that carry shaped streams now. */
    private List<String> shapedDevices = List.of();
    private String applied = "";

    private HostShaper(HostSession host, Map<String, String> missing) {
        this.host = host;
        this.missing = Map.copyOf(missing);
    }

    /** Whether a toxic of this type is made with traffic control. */
    static boolean shapes(ToxicType type) {
        return type == ToxicType.LATENCY || type == ToxicType.BANDWIDTH;
    }

    /**
     * The script that tries each facility in a network namespace of its own (to run as root): a line per facility,
     * {@code <name> ok} or {@code <name> <what the kernel answered>}, or one line saying why nothing can be tried.
     */
    static String probeScript() {
        StringBuilder script = new StringBuilder("if ! command -v tc >/dev/null; then echo 'tc: not installed "
                + "(iproute2)'; elif ! command -v unshare >/dev/null; then echo 'unshare: not installed (util-linux), "
                + "so tc cannot be tried'; else\n");
        PROBES.forEach((name, command) -> script.append("if out=$(unshare -n sh -c ").append(Shell.quote(
                "ip link set lo up && " + command)).append(" 2>&1); then echo '").append(name)
                .append(" ok'; else echo \"").append(name).append(" $out\" | head -n 1; fi\n"));
        return script.append("fi\n").toString();
    }

    /** What {@code host} can shape, from the lines its {@link #probeScript} printed. */
    static HostShaper of(HostSession host, List<String> probe) {
        Map<String, String> missing = new LinkedHashMap<>();
        String first = probe.isEmpty() ? "the probe printed nothing" : probe.get(0).strip();
        if (probe.isEmpty() || first.startsWith("tc:") || first.startsWith("unshare:")) {
            PROBES.keySet().forEach(k -> missing.put(k, first));
        } else {
            for (String line : probe) {
                int sp = line.indexOf(' ');
                String name = sp > 0 ? line.substring(0, sp) : line.trim();
                if (PROBES.containsKey(name) && !(sp > 0 && line.substring(sp + 1).trim().equals("ok"))) {
                    missing.put(name, sp > 0 ? line.substring(sp + 1).trim() : "no answer");
                }
            }
            PROBES.keySet().stream().filter(k -> probe.stream().noneMatch(l -> l.startsWith(k + " ")))
                    .forEach(k -> missing.putIfAbsent(k, "not tried"));
        }
        return new HostShaper(host, missing);
    }

    /** What the host can shape, for people: {@code tc netem: no (...); tbf: yes}. */
    String describe() {
        List<String> parts = new ArrayList<>();
        for (String k : PROBES.keySet()) {
            parts.add(k + (missing.containsKey(k) ? " missing" : " yes"));
        }
        return String.join(", ", parts);
    }

    /** Why the host cannot make a toxic of this type, if it cannot. */
    Optional<String> whyNot(ToxicType type) {
        List<String> needs = type == ToxicType.LATENCY ? List.of("netem", "htb") : List.of("tbf", "htb");
        for (String n : needs) {
            if (missing.containsKey(n)) {
                return Optional.of((n.equals("htb") ? "tc htb with u32 filters" : "tc " + n) + " on "
                        + host.describe() + ", whose kernel lacks it (" + missing.get(n) + ")");
            }
        }
        return Optional.empty();
    }

    /** One stream this host sends that is shaped: matched on its egress, with its toxics. */
    record Shaped(String destination, int port, boolean destinationPort, List<Toxic> toxics) {
    }

    /**
     * Makes the host shape exactly {@code streams} (rebuilding its roots when they change; deleting them when none is
     * left).
     *
     * @param harness the harness's address as the host sees it (where what a server sends its clients goes)
     */
    synchronized void apply(List<Shaped> streams, String harness) {
        StringBuilder script = new StringBuilder("set -e\n");
        List<String> devices = new ArrayList<>();
        Map<String, List<Shaped>> byDevice = new LinkedHashMap<>();
        for (Shaped s : streams) {
            String to = s.destination() != null ? s.destination() : harness;
            byDevice.computeIfAbsent(to, k -> new ArrayList<>()).add(s);
        }
        // The interface of each destination is asked on the host (ip route get), in the same script.
        int classId = 2;
        script.append("dev() { ip -o route get \"$1\" | sed -n 's/.* dev \\([^ ]*\\).*/\\1/p' | head -n 1; }\n");
        script.append("done=' '\n");
        for (Map.Entry<String, List<Shaped>> e : byDevice.entrySet()) {
            script.append("d=$(dev ").append(Shell.quote(e.getKey())).append(")\n");
            script.append("case \"$done\" in *\" $d \"*) ;; *) tc qdisc replace dev \"$d\" root handle ")
                    .append(HANDLE).append(": htb default 1 r2q 1000; tc class replace dev \"$d\" parent ")
                    .append(HANDLE).append(": classid ").append(HANDLE).append(":1 htb rate 10gbit; done=\"$done$d \"; "
                    + "echo \"$d\";; esac\n");
            for (Shaped s : e.getValue()) {
                String cls = HANDLE + ":" + Integer.toHexString(classId++);
                script.append("tc class replace dev \"$d\" parent ").append(HANDLE).append(": classid ").append(cls)
                        .append(" htb rate 10gbit\n");
                script.append("tc qdisc replace dev \"$d\" parent ").append(cls).append(' ').append(leaf(s.toxics()))
                        .append('\n');
                script.append("tc filter add dev \"$d\" parent ").append(HANDLE).append(": protocol ip prio 1 u32");
                if (s.destination() != null) {
                    script.append(" match ip dst ").append(s.destination()).append("/32");
                }
                script.append(" match ip ").append(s.destinationPort() ? "dport " : "sport ").append(s.port())
                        .append(" 0xffff flowid ").append(cls).append('\n');
            }
        }
        String plan = script.toString();
        if (plan.equals(applied)) {
            return;
        }
        clear();
        if (!streams.isEmpty()) {
            HostSession.Result r = host.execPrivileged("sh -s", plan.getBytes(java.nio.charset.StandardCharsets.UTF_8))
                    .require(host, "shaping traffic with tc");
            for (String line : r.out().split("\n")) {
                if (!line.isBlank()) {
                    devices.add(line.trim());
                }
            }
        }
        shapedDevices = List.copyOf(devices);
        applied = streams.isEmpty() ? "" : plan;
    }

    /** The leaf of a shaped stream: netem for latency (with the rate, if limited too), else tbf. */
    static String leaf(List<Toxic> toxics) {
        Long latency = null;
        long jitter = 0;
        Long rate = null;
        for (Toxic t : toxics) {
            if (t.type() == ToxicType.LATENCY) {
                latency = (latency == null ? 0 : latency) + t.attribute("latency");
                jitter += t.attribute("jitter");
            } else if (t.type() == ToxicType.BANDWIDTH) {
                rate = rate == null ? t.attribute("rate") : Math.min(rate, t.attribute("rate"));
            }
        }
        String kbit = rate == null ? null : Math.max(8, rate * 8) + "kbit"; // Toxiproxy's rate is in KB/s
        if (latency != null) {
            return "netem delay " + latency + "ms" + (jitter > 0 ? " " + jitter + "ms" : "")
                    + (kbit == null ? "" : " rate " + kbit);
        }
        return "tbf rate " + kbit + " burst 32kbit latency 400ms";
    }

    /** Deletes zk-chaos's roots from the interfaces shaped now. */
    synchronized void clear() {
        if (shapedDevices.isEmpty()) {
            return;
        }
        StringBuilder cmd = new StringBuilder();
        for (String d : shapedDevices) {
            cmd.append("tc qdisc del dev ").append(Shell.quote(d)).append(" root handle ").append(HANDLE)
                    .append(": 2>/dev/null; ");
        }
        host.execPrivileged(cmd + "true");
        shapedDevices = List.of();
        applied = "";
    }

    /** The command that deletes zk-chaos's roots from every interface of a host (what a killed harness left). */
    static String clearAll() {
        return "for d in $(tc qdisc show 2>/dev/null | sed -n 's/^qdisc [a-z_]* " + HANDLE
                + ": dev \\([^ ]*\\) root.*/\\1/p'); do tc qdisc del dev \"$d\" root && echo \"$d\"; done; true";
    }
}
