package io.zkchaos.harness.cluster.local;

import java.net.InetSocketAddress;
import java.nio.file.Path;

/**
 * Where one server lives: its id, loopback address, ports and directory.
 *
 * @param name         node name, {@code n<id>}
 * @param id           ZooKeeper's {@code myid}, 1-based
 * @param address      the loopback address the server binds
 * @param clientPort   client port (bound on {@code address})
 * @param quorumPort   quorum (follower → leader) port
 * @param electionPort leader-election port
 * @param dir          the node's directory
 */
record NodeLayout(String name, int id, String address, int clientPort, int quorumPort, int electionPort, Path dir) {

    /** The server's own client address, where the harness asks four-letter words. */
    InetSocketAddress clientAddress() {
        return new InetSocketAddress(address, clientPort);
    }

    InetSocketAddress quorumAddress() {
        return new InetSocketAddress(address, quorumPort);
    }

    InetSocketAddress electionAddress() {
        return new InetSocketAddress(address, electionPort);
    }
}
