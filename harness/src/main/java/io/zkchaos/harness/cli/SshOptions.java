package io.zkchaos.harness.cli;

import io.zkchaos.harness.cluster.ClusterBackend;
import io.zkchaos.harness.cluster.ClusterBackends;
import io.zkchaos.harness.cluster.ssh.HostsFile;
import io.zkchaos.harness.cluster.ssh.SshSettings;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * Where the ssh backend runs and how it reaches the hosts: the options {@code run} and {@code hosts} share (a picocli
 * mixin). Strings become {@link SshSettings} here and nowhere else.
 */
public final class SshOptions {

    @Option(names = "--hosts", paramLabel = "FILE", description = "the ssh backend's hosts, one a line as Jepsen's "
            + "nodes file ([user@]host[:port]; a host may be an alias of the SSH client configuration); node n1 runs "
            + "on the first")
    Path hosts;

    @Option(names = "--ssh-user", paramLabel = "USER", description = "the user to log in as (default: the hosts "
            + "file's user@, the SSH configuration's User, else yours)")
    String user;

    @Option(names = "--ssh-port", paramLabel = "PORT", description = "the SSH port (default: the hosts file's :port, "
            + "the SSH configuration's Port, else 22)")
    Integer port;

    @Option(names = "--ssh-identity", paramLabel = "FILE", description = "the private key (default: the SSH "
            + "configuration's IdentityFile, else ~/.ssh/id_ed25519, id_ecdsa, id_rsa); no passphrase, no agent")
    Path identity;

    @Option(names = "--known-hosts", paramLabel = "POLICY", description = "how host keys are checked: strict (in the "
            + "known-hosts file already), accept-new (added when new, refused when changed) or off (default: strict)")
    String knownHosts = SshSettings.KnownHosts.STRICT.cliName();

    @Option(names = "--known-hosts-file", paramLabel = "FILE", description = "the known-hosts file (default: "
            + "~/.ssh/known_hosts)")
    Path knownHostsFile;

    @Option(names = "--ssh-config", paramLabel = "FILE", description = "the SSH client configuration (default: "
            + "~/.ssh/config, when present)")
    Path sshConfig;

    @Option(names = "--remote-dir", paramLabel = "DIR", description = "where on each host the harness keeps the jars "
            + "it brings and each run's files; absolute, or relative to the login directory (default: "
            + SshSettings.DEFAULT_REMOTE_DIRECTORY + ")")
    String remoteDirectory;

    @Option(names = "--remote-java", paramLabel = "COMMAND", description = "the java command on the hosts, Java 11 "
            + "or later (default: java)")
    String java;

    @Option(names = "--sudo", description = "run iptables and tc through sudo -n (a user other than root, allowed "
            + "sudo without a password)")
    boolean sudo;

    /**
     * The backend {@code --backend NAME} names, on the hosts of {@code --hosts FILE} when given (the ssh backend's
     * alone: {@link ClusterBackends#named}).
     *
     * @throws IllegalArgumentException naming the unknown backend, the option or the hosts file's line that is wrong
     */
    ClusterBackend backend(String name) {
        return ClusterBackends.named(name, settings());
    }

    /**
     * The settings, or null when no {@code --hosts} was given.
     *
     * @throws IllegalArgumentException naming the option or the hosts file's line that is wrong
     */
    SshSettings settings() {
        if (hosts == null) {
            if (user != null || port != null || identity != null || sshConfig != null || remoteDirectory != null
                    || java != null || sudo || knownHostsFile != null) {
                throw new IllegalArgumentException("--ssh-*, --remote-* and --sudo go with --hosts FILE (the ssh "
                        + "backend)");
            }
            return null;
        }
        java.util.List<io.zkchaos.harness.cluster.ssh.SshHost> list;
        try {
            list = HostsFile.read(hosts);
        } catch (java.io.UncheckedIOException e) {
            throw new IllegalArgumentException("--hosts: " + e.getMessage(), e);
        }
        return new SshSettings(list, user, port, identity == null ? null : identity.toString(),
                SshSettings.KnownHosts.parse(knownHosts), knownHostsFile == null ? null : knownHostsFile.toString(),
                sshConfig == null ? null : sshConfig.toString(), remoteDirectory, java, sudo);
    }
}
