package io.zkchaos.harness.cluster.ssh;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.sshd.client.SshClient;
import org.apache.sshd.client.config.hosts.ConfigFileHostEntryResolver;
import org.apache.sshd.client.config.hosts.HostConfigEntry;
import org.apache.sshd.client.config.hosts.HostConfigEntryResolver;
import org.apache.sshd.client.keyverifier.AcceptAllServerKeyVerifier;
import org.apache.sshd.client.keyverifier.KnownHostsServerKeyVerifier;
import org.apache.sshd.client.keyverifier.RejectAllServerKeyVerifier;
import org.apache.sshd.client.keyverifier.ServerKeyVerifier;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.keyprovider.FileKeyPairProvider;

/**
 * The SSH connections to the hosts of one ensemble (or of one {@code hosts heal}), with Apache MINA SSHD's client:
 * host {@code i} of the settings runs node {@code n<i>}. Connecting resolves each host as OpenSSH would — the hosts
 * file's {@code user@host:port}, then the run's settings, then the SSH client configuration's {@code HostName},
 * {@code User}, {@code Port}, {@code IdentityFile} and {@code ProxyJump}, then the defaults — checks its key against
 * the known-hosts file as the settings ask, and logs in with a private key (no password, no agent).
 */
public final class SshHosts implements AutoCloseable {

    /** How long connecting to and logging in on one host may take. */
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(30);
    private static final Path HOME = Path.of(System.getProperty("user.home"));

    private final SshClient client;
    private final Map<String, HostSession> sessions;

    private SshHosts(SshClient client, Map<String, HostSession> sessions) {
        this.client = client;
        this.sessions = sessions;
    }

    /**
     * Connects to the first {@code count} hosts of {@code settings}, in parallel.
     *
     * @throws IllegalArgumentException when there are fewer hosts than {@code count}
     * @throws IllegalStateException    naming every host that could not be reached or logged in on, and why
     */
    public static SshHosts connect(SshSettings settings, int count) {
        if (settings.hosts().size() < count) {
            throw new IllegalArgumentException("nodes: " + count + " nodes need " + count + " hosts, the hosts file "
                    + "names " + settings.hosts().size() + " (" + settings.hosts() + ")");
        }
        SshClient client = SshClient.setUpDefaultClient();
        client.setServerKeyVerifier(verifier(settings));
        HostConfigEntryResolver config = configResolver(settings);
        client.setHostConfigEntryResolver(config);
        client.start();
        // Resolved one after the other (the configuration's reader loads its file lazily, not safely from many
        // threads), then connected in parallel.
        Map<String, CompletableFuture<HostSession>> connecting = new LinkedHashMap<>();
        for (int i = 0; i < count; i++) {
            String node = "n" + (i + 1);
            SshHost host = settings.hosts().get(i);
            CompletableFuture<HostSession> f;
            try {
                Target t = resolve(config, settings, node, host);
                f = CompletableFuture.supplyAsync(() -> connect(client, settings, t));
            } catch (RuntimeException e) {
                f = CompletableFuture.failedFuture(e);
            }
            connecting.put(node, f);
        }
        Map<String, HostSession> sessions = new LinkedHashMap<>();
        List<String> failures = new ArrayList<>();
        connecting.forEach((node, f) -> {
            try {
                sessions.put(node, f.join());
            } catch (CompletionException e) {
                failures.add(e.getCause() == null ? e.toString() : e.getCause().getMessage());
            }
        });
        SshHosts hosts = new SshHosts(client, sessions);
        if (!failures.isEmpty()) {
            hosts.close();
            throw new IllegalStateException("cannot reach every host: " + String.join("; ", failures));
        }
        return hosts;
    }

    /** A host as the connection will reach it: every setting resolved. */
    private record Target(String node, SshHost host, String hostName, int port, String user, String address,
                          List<Path> keys, String proxyJump) {
        String what() {
            return node + " (" + host + ")";
        }
    }

    private static Target resolve(HostConfigEntryResolver config, SshSettings settings, String node, SshHost host) {
        String what = node + " (" + host + ")";
        HostConfigEntry resolved;
        try {
            resolved = config.resolveEffectiveHost(host.name(), 0, null, null, null, null);
        } catch (IOException e) {
            throw new IllegalStateException(what + ": cannot read the SSH client configuration: " + e.getMessage(), e);
        }
        String hostName = resolved != null && resolved.getHostName() != null ? resolved.getHostName() : host.name();
        int port = first(host.port(), settings.port(), resolved != null && resolved.getPort() > 0
                ? resolved.getPort() : null, 22);
        String user = first(host.user(), settings.user(), resolved == null ? null : resolved.getUsername(),
                System.getProperty("user.name"));
        String address;
        try {
            address = host.address() != null ? host.address() : InetAddress.getByName(hostName).getHostAddress();
        } catch (UnknownHostException e) {
            throw new IllegalStateException(what + ": unknown host " + hostName, e);
        }
        List<Path> keys;
        try {
            keys = identities(settings, resolved, hostName, port, user);
        } catch (IllegalStateException e) {
            throw new IllegalStateException(what + ": " + e.getMessage(), e);
        }
        return new Target(node, host, hostName, port, user, address, keys,
                resolved == null ? null : resolved.getProxyJump());
    }

    private static HostSession connect(SshClient client, SshSettings settings, Target t) {
        String target = t.user() + "@" + t.hostName() + ":" + t.port();
        HostConfigEntry entry = new HostConfigEntry("", t.hostName(), t.port(), t.user());
        if (t.proxyJump() != null) {
            entry.setProxyJump(t.proxyJump());
        }
        ClientSession session = null;
        try {
            session = client.connect(entry, null, null).verify(CONNECT_TIMEOUT).getSession();
            for (KeyPair k : new FileKeyPairProvider(t.keys()).loadKeys(session)) {
                session.addPublicKeyIdentity(k);
            }
            session.auth().verify(CONNECT_TIMEOUT);
            return new HostSession(t.node(), t.host(), t.address(), session, settings.sudo());
        } catch (IOException | RuntimeException e) {
            if (session != null) {
                session.close(true);
            }
            throw new IllegalStateException(t.what() + ": cannot log in as " + target + " with " + t.keys() + ": "
                    + e.getMessage() + hint(settings, e), e);
        }
    }

    private static String hint(SshSettings settings, Exception e) {
        String m = String.valueOf(e.getMessage());
        if (m.contains("did not validate") || m.contains("Server key")) {
            return " (its host key is not in " + knownHostsFile(settings) + " as the known-hosts policy '"
                    + settings.knownHosts().cliName() + "' requires; add it with ssh-keyscan, or use --known-hosts "
                    + "accept-new)";
        }
        if (m.contains("No more authentication methods")) {
            return " (the host accepted none of the keys: is the public key in the user's authorized_keys?)";
        }
        return "";
    }

    private static ServerKeyVerifier verifier(SshSettings settings) {
        return switch (settings.knownHosts()) {
            case STRICT -> new KnownHostsServerKeyVerifier(RejectAllServerKeyVerifier.INSTANCE,
                    knownHostsFile(settings));
            case ACCEPT_NEW -> new KnownHostsServerKeyVerifier(AcceptAllServerKeyVerifier.INSTANCE,
                    knownHostsFile(settings));
            case OFF -> AcceptAllServerKeyVerifier.INSTANCE;
        };
    }

    static Path knownHostsFile(SshSettings settings) {
        return settings.knownHostsFile() != null ? Path.of(settings.knownHostsFile())
                : HOME.resolve(".ssh").resolve("known_hosts");
    }

    private static HostConfigEntryResolver configResolver(SshSettings settings) {
        Path file = settings.sshConfig() != null ? Path.of(settings.sshConfig())
                : HOME.resolve(".ssh").resolve("config");
        if (!Files.isRegularFile(file)) {
            if (settings.sshConfig() != null) {
                throw new IllegalArgumentException("ssh-config: no such file " + file);
            }
            return HostConfigEntryResolver.EMPTY;
        }
        return new ConfigFileHostEntryResolver(file);
    }

    /** The private keys to offer: the settings', else the configuration's IdentityFile, else ~/.ssh/id_*. */
    private static List<Path> identities(SshSettings settings, HostConfigEntry resolved, String host, int port,
                                         String user) {
        List<Path> keys = new ArrayList<>();
        if (settings.identity() != null) {
            keys.add(Path.of(settings.identity()));
        } else if (resolved != null && resolved.getIdentities() != null && !resolved.getIdentities().isEmpty()) {
            for (String id : resolved.getIdentities()) {
                try {
                    keys.add(Path.of(HostConfigEntry.resolveIdentityFilePath(id, host, port, user)));
                } catch (IOException e) {
                    throw new IllegalStateException("cannot resolve IdentityFile " + id + ": " + e.getMessage(), e);
                }
            }
        } else {
            for (String name : List.of("id_ed25519", "id_ecdsa", "id_rsa")) {
                Path p = HOME.resolve(".ssh").resolve(name);
                if (Files.isRegularFile(p)) {
                    keys.add(p);
                }
            }
        }
        List<Path> missing = keys.stream().filter(p -> !Files.isReadable(p)).toList();
        if (keys.isEmpty() || !missing.isEmpty()) {
            throw new IllegalStateException("no private key to log in with" + (missing.isEmpty() ? ""
                    : " (cannot read " + missing + ")") + ": name one with --ssh-identity FILE, or IdentityFile in "
                    + "the SSH client configuration");
        }
        return keys;
    }

    @SafeVarargs
    private static <T> T first(T... values) {
        for (T v : values) {
            if (v != null) {
                return v;
            }
        }
        return null;
    }

    /** The session of every host, by node, in order. */
    public Map<String, HostSession> sessions() {
        return sessions;
    }

    /** The session of {@code node}'s host. */
    public HostSession session(String node) {
        HostSession s = sessions.get(node);
        if (s == null) {
            throw new IllegalArgumentException("unknown node '" + node + "': nodes are " + sessions.keySet());
        }
        return s;
    }

    /** Closes every connection and the client. */
    @Override
    public void close() {
        sessions.values().forEach(HostSession::close);
        client.stop();
    }

}
