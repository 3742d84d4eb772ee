package io.zkchaos.harness.cluster.server;

import java.net.InetSocketAddress;
import java.nio.file.Path;

/**
 * Where one server lives: its id, address, ports and directory (on this machine for the local backend, on its host
 * for the ssh backend).
 *
 * @param name         node name, {@code n<id>}
 * @param id           ZooKeeper's {@code myid}, 1-based
 * @param address      the address the server binds (a loopback address locally, the host's own on a host)
 * @param clientPort   client port (bound on {@code address})
 * @param quorumPort   quorum (follower → leader) port
 * @param electionPort leader-election port
 * @param dir          the node's directory
 */
public record NodeLayout(String name, int id, String address, int clientPort, int quorumPort, int electionPort, Path dir) {

    /** The server's own client address, where the harness asks four-letter words. */
    public InetSocketAddress clientAddress() {
        return new InetSocketAddress(address, clientPort);
    }

    public InetSocketAddress quorumAddress() {
        return new InetSocketAddress(address, quorumPort);
    }

    public InetSocketAddress electionAddress() {
        return new InetSocketAddress(address, electionPort);
    }
}
