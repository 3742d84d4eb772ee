package io.zkchaos.harness.cluster.ssh;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Where the ssh backend runs an ensemble and how it reaches the hosts: the run configuration's part for it (saved in
 * {@code config.json}). Node {@code n<i>} runs on the i-th host. What a host's line of the hosts file names (user,
 * port) wins over the settings here, which win over the SSH client configuration ({@code ~/.ssh/config}: HostName,
 * User, Port, IdentityFile, ProxyJump), which wins over the defaults (the local user, port 22, {@code ~/.ssh/id_*}).
 *
 * @param hosts           the hosts, in order (from a {@link HostsFile})
 * @param user            the user to log in as, or null
 * @param port            the SSH port, or null
 * @param identity        the private key file, or null (the configuration's IdentityFile, else {@code ~/.ssh/id_*})
 * @param knownHosts      how a host's key is checked against the known-hosts file
 * @param knownHostsFile  the known-hosts file, or null for {@code ~/.ssh/known_hosts}
 * @param sshConfig       the SSH client configuration file, or null for {@code ~/.ssh/config} (read when present)
 * @param remoteDirectory where on each host the harness keeps what it installs and each run's files: absolute, or
 *                        relative to the login directory
 * @param java            the {@code java} command on the hosts (a JRE 11 or later)
 * @param sudo            whether iptables and tc run through {@code sudo -n} (a user other than root, allowed to
 *                        without a password)
 */
public record SshSettings(List<SshHost> hosts, String user, Integer port, String identity, KnownHosts knownHosts,
                          String knownHostsFile, String sshConfig, String remoteDirectory, String java,
                          boolean sudo) {

    /** The default remote directory, relative to the login directory. */
    public static final String DEFAULT_REMOTE_DIRECTORY = "zkchaos";

    public SshSettings {
        Objects.requireNonNull(hosts, "hosts");
        hosts = List.copyOf(hosts);
        if (hosts.isEmpty()) {
            throw new IllegalArgumentException("hosts: the ssh backend needs at least one host (--hosts FILE)");
        }
        if (port != null && (port < 1 || port > 65535)) {
            throw new IllegalArgumentException("ssh-port: must be 1..65535, was " + port);
        }
        knownHosts = knownHosts == null ? KnownHosts.STRICT : knownHosts;
        remoteDirectory = remoteDirectory == null || remoteDirectory.isBlank() ? DEFAULT_REMOTE_DIRECTORY
                : remoteDirectory;
        if (remoteDirectory.chars().anyMatch(c -> c == '\'' || c == '\n' || Character.isWhitespace(c))) {
            throw new IllegalArgumentException("remote-dir: must be a path without quotes or spaces, was '"
                    + remoteDirectory + "'");
        }
        java = java == null || java.isBlank() ? "java" : java;
    }

    /** The hosts with every other setting at its default. */
    public static SshSettings of(List<SshHost> hosts) {
        return new SshSettings(hosts, null, null, null, KnownHosts.STRICT, null, null, null, null, false);
    }

    /** The same settings with another remote directory. */
    public SshSettings withRemoteDirectory(String dir) {
        return new SshSettings(hosts, user, port, identity, knownHosts, knownHostsFile, sshConfig, dir, java, sudo);
    }

    /** The same settings with these known-hosts policy and file. */
    public SshSettings withKnownHosts(KnownHosts policy, String file) {
        return new SshSettings(hosts, user, port, identity, policy, file, sshConfig, remoteDirectory, java, sudo);
    }

    /** The same settings with this private key and SSH client configuration file. */
    public SshSettings withIdentity(String key, String config) {
        return new SshSettings(hosts, user, port, key, knownHosts, knownHostsFile, config, remoteDirectory, java,
                sudo);
    }

    /** How a host's key is checked, as OpenSSH's {@code StrictHostKeyChecking}. */
    public enum KnownHosts {
        /** The key must be in the known-hosts file already ({@code yes}). */
        STRICT,
        /** A host not in the file is added to it; a changed key is refused ({@code accept-new}). */
        ACCEPT_NEW,
        /** Any key is accepted ({@code no}): only for hosts that cannot be impersonated (a test network). */
        OFF;

        /** {@code strict}, {@code accept-new}, {@code off}. */
        @JsonValue
        public String cliName() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        /** @throws IllegalArgumentException naming the value and the ones there are */
        public static KnownHosts parse(String s) {
            for (KnownHosts k : values()) {
                if (k.cliName().equals(s)) {
                    return k;
                }
            }
            throw new IllegalArgumentException("known-hosts: must be one of " + Arrays.stream(values())
                    .map(KnownHosts::cliName).collect(Collectors.joining(", ")) + ", was '" + s + "'");
        }
    }
}
