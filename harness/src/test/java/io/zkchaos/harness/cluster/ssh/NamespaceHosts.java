package io.zkchaos.harness.cluster.ssh;

import static org.awaitility.Awaitility.await;

import io.zkchaos.harness.cluster.ssh.SshSettings.KnownHosts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.awaitility.core.ConditionTimeoutException;

/**
 * Hosts on this machine for the ssh backend's tests: each a network namespace with its own address on a bridge of its
 * own ({@code 10.77.S.0/24}; the bridge in a namespace of its own, the switch; this namespace {@code .1} through a veth
 * to it, host i {@code .1i}), its own iptables and its own
 * sshd (its own host key; root logs in with a key of the fixture's). The namespaces share the file system, so the JRE
 * is there. The hosts are named {@code h1 .. hN} in a generated SSH client configuration (HostName, User,
 * IdentityFile), and their keys are in a generated known-hosts file, so the backend is used as a user would: strict
 * host-key checking, aliases resolved through the configuration.
 *
 * <p>The namespaces have no route but their subnet: traffic stays between them and this namespace. {@link #close()}
 * ends every process in them (the servers the tests started there too), removes them, the bridge and every file, and
 * says what it could not; {@link #create} first removes what a fixture of a test JVM that is gone left.
 */
public final class NamespaceHosts implements AutoCloseable {

    private static final AtomicInteger FIXTURES = new AtomicInteger();
    private static final Pattern OURS = Pattern.compile("zkc(\\d+)x\\d+(h\\d+|sw)");
    private static final Pattern OUR_UPLINK = Pattern.compile("zk(\\d+)x\\d+u");
    private static final String SSHD = "/usr/sbin/sshd";

    private final String prefix;
    private final String uplink;
    private final int subnet;
    private final Path dir;
    private final List<String> namespaces = new ArrayList<>();
    private final List<Process> sshds = new ArrayList<>();
    private final List<String> addresses = new ArrayList<>();

    private NamespaceHosts(String prefix, String uplink, int subnet, Path dir) {
        this.prefix = prefix;
        this.uplink = uplink;
        this.subnet = subnet;
        this.dir = dir;
    }

    /** Why the hosts cannot be made here (not root, a tool missing, no namespaces), or empty when they can. */
    public static Optional<String> unavailable() {
        try {
            String uid = run(List.of("id", "-u")).trim();
            if (!uid.equals("0")) {
                return Optional.of("the hosts are network namespaces, which need root (uid is " + uid + ")");
            }
            for (String tool : List.of("ip", "iptables", "iptables-restore", "ssh-keygen", "unshare", SSHD)) {
                if (!tool.startsWith("/") ? run(List.of("sh", "-c", "command -v " + tool + " || true")).isBlank()
                        : !Files.isExecutable(Path.of(tool))) {
                    return Optional.of(tool + " is not installed (.ci/run installs openssh-server, iproute2 and "
                            + "iptables)");
                }
            }
            String probe = "zkc" + ProcessHandle.current().pid() + "x0h0";
            run(List.of("ip", "netns", "add", probe));
            run(List.of("ip", "netns", "del", probe));
            return Optional.empty();
        } catch (RuntimeException e) {
            return Optional.of(e.getMessage());
        }
    }

    /**
     * Makes {@code count} hosts, with their files under {@code parent} (removed at close).
     *
     * @throws IllegalStateException naming the step that failed (what was made is removed)
     */
    public static NamespaceHosts create(int count, Path parent) {
        removeLeftovers();
        long pid = ProcessHandle.current().pid();
        int k = FIXTURES.incrementAndGet();
        NamespaceHosts hosts;
        try {
            hosts = new NamespaceHosts("zkc" + pid + "x" + k, "zk" + pid + "x" + k + "u", freeSubnet(),
                    Files.createTempDirectory(parent, "hosts"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            hosts.build(count);
            return hosts;
        } catch (RuntimeException | IOException e) {
            hosts.close();
            throw new IllegalStateException("cannot make " + count + " namespace hosts: " + e.getMessage(), e);
        }
    }

    private void build(int count) throws IOException {
        Files.createDirectories(Path.of("/run/sshd")); // sshd's privilege separation directory
        run(List.of("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "zkchaos-test", "-f",
                dir.resolve("id_ed25519").toString()));
        Files.copy(dir.resolve("id_ed25519.pub"), dir.resolve("authorized_keys"));
        Files.writeString(dir.resolve("bashrc"), "# the namespace hosts' root: nothing to set up\n");
        // The switch: a namespace of its own holding the bridge, so that frames between the hosts meet no firewall
        // but the hosts' own (this namespace's may drop what it forwards: a Docker engine sets FORWARD to DROP).
        run(List.of("ip", "netns", "add", switchNamespace()));
        namespaces.add(switchNamespace());
        inNamespace(switchNamespace(), "ip", "link", "add", "br0", "type", "bridge");
        inNamespace(switchNamespace(), "ip", "link", "set", "br0", "up");
        run(List.of("ip", "link", "add", uplink, "type", "veth", "peer", "name", "harness", "netns",
                switchNamespace()));
        inNamespace(switchNamespace(), "ip", "link", "set", "dev", "harness", "master", "br0", "up");
        run(List.of("ip", "addr", "add", "10.77." + subnet + ".1/24", "dev", uplink));
        run(List.of("ip", "link", "set", uplink, "up"));
        StringBuilder config = new StringBuilder();
        StringBuilder known = new StringBuilder();
        StringBuilder hostsFile = new StringBuilder("# namespace hosts of a test\n");
        for (int i = 1; i <= count; i++) {
            String ns = prefix + "h" + i;
            String address = "10.77." + subnet + "." + (10 + i);
            run(List.of("ip", "netns", "add", ns));
            namespaces.add(ns);
            inNamespace(switchNamespace(), "ip", "link", "add", "h" + i, "type", "veth", "peer", "name", "eth0",
                    "netns", ns);
            inNamespace(switchNamespace(), "ip", "link", "set", "dev", "h" + i, "master", "br0", "up");
            inNamespace(ns, "ip", "addr", "add", address + "/24", "dev", "eth0");
            inNamespace(ns, "ip", "link", "set", "eth0", "up");
            inNamespace(ns, "ip", "link", "set", "lo", "up");
            Path key = dir.resolve("host" + i + "_ed25519");
            run(List.of("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key.toString()));
            Path sshdConfig = dir.resolve("sshd" + i + ".conf");
            Files.writeString(sshdConfig, String.join("\n",
                    "ListenAddress " + address,
                    "Port 22",
                    "HostKey " + key,
                    "AuthorizedKeysFile " + dir.resolve("authorized_keys"),
                    "PermitRootLogin prohibit-password",
                    "PasswordAuthentication no",
                    "KbdInteractiveAuthentication no",
                    "UsePAM no",
                    "StrictModes no",
                    "AllowTcpForwarding yes",
                    "MaxSessions 30",
                    "MaxStartups 100",
                    "PrintMotd no",
                    "PidFile " + dir.resolve("sshd" + i + ".pid"),
                    ""), StandardCharsets.UTF_8);
            // The hosts' root gets a plain shell profile, as on a fresh host: this machine's may set up tools (pyenv)
            // that cost seconds at every command. A bind mount in a mount namespace of the sshd's own.
            String start = "if [ -f \"$HOME/.bashrc\" ]; then mount --bind " + dir.resolve("bashrc") + " \"$HOME/.bashrc\"; "
                    + "fi; exec " + SSHD + " -D -e -f " + sshdConfig;
            sshds.add(new ProcessBuilder("ip", "netns", "exec", ns, "unshare", "-m", "sh", "-c", start)
                    .redirectErrorStream(true).redirectOutput(dir.resolve("sshd" + i + ".log").toFile()).start());
            addresses.add(address);
            config.append("Host h").append(i).append("\n  HostName ").append(address).append("\n  User root\n")
                    .append("  IdentityFile ").append(dir.resolve("id_ed25519")).append("\n\n");
            known.append(address).append(' ').append(Files.readString(dir.resolve("host" + i + "_ed25519.pub")));
            hostsFile.append('h').append(i).append('\n');
        }
        Files.writeString(sshConfig(), config, StandardCharsets.UTF_8);
        Files.writeString(knownHosts(), known, StandardCharsets.UTF_8);
        Files.writeString(hostsFile(), hostsFile, StandardCharsets.UTF_8);
        for (int i = 0; i < count; i++) {
            int n = i + 1;
            String address = addresses.get(i);
            Process sshd = sshds.get(i);
            await("sshd of host " + n + " listens on " + address).atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(100)).until(() -> {
                        if (!sshd.isAlive()) {
                            throw new IllegalStateException("sshd of host h" + n + " ended: "
                                    + Files.readString(dir.resolve("sshd" + n + ".log")));
                        }
                        try (Socket s = new Socket()) {
                            s.connect(new InetSocketAddress(address, 22), 500);
                            return true;
                        } catch (IOException e) {
                            return false;
                        }
                    });
        }
    }

    /** The hosts file: {@code h1 .. hN}, aliases of {@link #sshConfig()}. */
    public Path hostsFile() {
        return dir.resolve("hosts.txt");
    }

    /** The SSH client configuration naming every host. */
    public Path sshConfig() {
        return dir.resolve("ssh_config");
    }

    /** The known-hosts file with every host's key. */
    public Path knownHosts() {
        return dir.resolve("known_hosts");
    }

    /** Host i's address (1-based). */
    public String address(int i) {
        return addresses.get(i - 1);
    }

    /** Host i's network namespace (1-based), to look inside it. */
    public String namespace(int i) {
        return prefix + "h" + i;
    }

    /** How many hosts there are. */
    public int size() {
        return addresses.size();
    }

    private String switchNamespace() {
        return prefix + "sw";
    }

    /** The settings a run on these hosts uses: strict host keys, the generated configuration, a remote directory. */
    public SshSettings settings() {
        return SshSettings.of(HostsFile.read(hostsFile())).withKnownHosts(KnownHosts.STRICT, knownHosts().toString())
                .withIdentity(null, sshConfig().toString()).withRemoteDirectory(remoteDirectory().toString());
    }

    /** Where the harness keeps its files on the hosts (one directory: they share this machine's file system). */
    public Path remoteDirectory() {
        return dir.resolve("remote");
    }

    /** The command-line options of a run on these hosts ({@code --hosts ...}). */
    public List<String> options() {
        return List.of("--hosts", hostsFile().toString(), "--ssh-config", sshConfig().toString(),
                "--known-hosts-file", knownHosts().toString(), "--remote-dir", remoteDirectory().toString());
    }

    /**
     * What the hosts' kernel (this machine's: namespaces share it) answers when asked for the queueing discipline
     * {@code qdisc} ({@code netem}, {@code tbf}), tried in a network namespace of its own; empty when it has it.
     */
    public static Optional<String> kernelLacks(String qdisc, String parameters) {
        try {
            run(List.of("unshare", "-n", "sh", "-c", "ip link set lo up && tc qdisc add dev lo root " + qdisc + " "
                    + parameters));
            return Optional.empty();
        } catch (IllegalStateException e) {
            return Optional.of(e.getMessage());
        }
    }

    /** Runs {@code command} in host i's namespace and returns its output. */
    public String inHost(int i, String... command) {
        return inNamespace(namespace(i), command);
    }

    private static String inNamespace(String ns, String... command) {
        List<String> c = new ArrayList<>(List.of("ip", "netns", "exec", ns));
        c.addAll(List.of(command));
        return run(c);
    }

    /** Ends every process in the namespaces, removes them, the bridge and the files; fails naming what is left. */
    @Override
    public void close() {
        List<String> problems = new ArrayList<>();
        for (String ns : namespaces) {
            try {
                killAllIn(ns);
            } catch (RuntimeException e) {
                problems.add(e.getMessage());
            }
        }
        for (Process p : sshds) {
            p.destroyForcibly();
            try {
                p.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        for (String ns : namespaces) {
            try {
                run(List.of("ip", "netns", "del", ns));
            } catch (RuntimeException e) {
                problems.add(e.getMessage());
            }
        }
        try {
            removeUplink();
        } catch (RuntimeException e) {
            problems.add(e.getMessage());
        }
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            problems.add("cannot delete " + dir + ": " + e);
        }
        if (!problems.isEmpty()) {
            throw new IllegalStateException("namespace hosts not fully removed: " + String.join("; ", problems));
        }
    }

    /**
     * Removes this namespace's end of the veth to the switch. Deleting the switch's namespace removes its end, and the
     * kernel then removes this one on its own, a moment later: so wait for that, and delete it only if it stays.
     */
    private void removeUplink() {
        try {
            await("uplink " + uplink + " removed with the switch").atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(100)).until(() -> !uplinkPresent());
        } catch (ConditionTimeoutException e) {
            String out = run(List.of("ip", "link", "del", uplink), false);
            if (uplinkPresent()) {
                throw new IllegalStateException("ip link del " + uplink + " left it in place: " + out.strip());
            }
        }
    }

    private boolean uplinkPresent() {
        return run(List.of("ip", "-o", "link", "show")).contains(" " + uplink + "@");
    }

    private static void killAllIn(String ns) {
        String pids = run(List.of("ip", "netns", "pids", ns)).trim();
        if (!pids.isEmpty()) {
            List<String> kill = new ArrayList<>(List.of("kill", "-KILL"));
            kill.addAll(List.of(pids.split("\\s+")));
            runLenient(kill);
        }
    }

    /** Removes the namespaces and bridges whose test JVM is gone. */
    private static void removeLeftovers() {
        for (String line : run(List.of("ip", "netns", "list")).split("\n")) {
            String ns = line.trim().split("\\s+")[0];
            Matcher m = OURS.matcher(ns);
            if (m.matches() && !alive(Long.parseLong(m.group(1)))) {
                killAllIn(ns);
                runLenient(List.of("ip", "netns", "del", ns));
            }
        }
        for (String line : run(List.of("ip", "-o", "link", "show", "type", "veth")).split("\n")) {
            String[] f = line.split(":\\s*");
            if (f.length > 1) {
                String name = f[1].trim().split("@")[0];
                Matcher m = OUR_UPLINK.matcher(name);
                if (m.matches() && !alive(Long.parseLong(m.group(1)))) {
                    runLenient(List.of("ip", "link", "del", name));
                }
            }
        }
    }

    private static boolean alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    /** A /24 of 10.77/16 that no route of this machine uses. */
    private static int freeSubnet() {
        String routes = run(List.of("ip", "-4", "route"));
        int start = (int) (ProcessHandle.current().pid() % 200) + 20;
        for (int i = 0; i < 230; i++) {
            int s = (start + i) % 230 + 20;
            if (!routes.contains("10.77." + s + ".")) {
                return s;
            }
        }
        throw new IllegalStateException("no free 10.77.x.0/24 subnet");
    }

    private static String run(List<String> command) {
        return run(command, true);
    }

    private static void runLenient(List<String> command) {
        run(command, false);
    }

    private static String run(List<String> command, boolean strict) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " did not end within 60 s");
            }
            if (strict && p.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed (exit " + p.exitValue() + "): "
                        + out.strip());
            }
            return out;
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + String.join(" ", command) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running " + String.join(" ", command), e);
        }
    }
}
