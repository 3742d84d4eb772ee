package io.zkchaos.harness.cluster.ssh;

import java.util.Objects;

/**
 * One line of a hosts file ({@link HostsFile}): a host the ssh backend runs a node on.
 *
 * @param name    the host as written: a host name, an address, or an alias of the SSH client configuration
 *                ({@code ~/.ssh/config}); the name the report shows
 * @param user    the user to log in as ({@code user@host}), or null: the run's {@code --ssh-user}, the SSH
 *                configuration's {@code User}, else the local user
 * @param port    the SSH port ({@code host:port}), or null: the run's {@code --ssh-port}, the configuration's
 *                {@code Port}, else 22
 * @param address the address the other hosts and the harness reach this host's servers at, and that it owns (its
 *                servers bind it), or null: the host's own address as the harness resolves it (after the SSH
 *                configuration's {@code HostName})
 */
public record SshHost(String name, String user, Integer port, String address) {

    public SshHost {
        Objects.requireNonNull(name, "name");
        if (name.isBlank() || name.chars().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException("host name must be one word, was '" + name + "'");
        }
        if (port != null && (port < 1 || port > 65535)) {
            throw new IllegalArgumentException("port of " + name + " must be 1..65535, was " + port);
        }
    }

    /** A host by name alone. */
    public static SshHost named(String name) {
        return new SshHost(name, null, null, null);
    }

    /** As a line of a hosts file: {@code [user@]name[:port] [address]}. */
    @Override
    public String toString() {
        return (user == null ? "" : user + "@") + name + (port == null ? "" : ":" + port)
                + (address == null ? "" : " " + address);
    }
}
