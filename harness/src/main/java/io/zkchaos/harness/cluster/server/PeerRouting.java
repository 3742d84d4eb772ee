package io.zkchaos.harness.cluster.server;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Optional;

/**
 * How nodes reach each other and how clients reach nodes. Node {@code from} reaches node {@code to}'s quorum and
 * election ports at {@link #peerAddress}, on {@code to}'s own port numbers; the node learns that address by
 * resolving {@code to}'s host name through its private hosts file (see {@link ServerFiles}).
 *
 * <p>Why host names and the peer's own port numbers: when a server with a smaller id connects to one with a larger
 * id for leader election, the larger one hangs up and connects back to the address the smaller one advertised —
 * its own {@code server.<id>} host and election port, not the address in the larger one's configuration. With a
 * host name that each node resolves privately, that call-back goes through the right proxy too.
 */
public interface PeerRouting {

    /** The IP address node {@code from} uses to reach node {@code to} (1-based ids, from != to). */
    String peerAddress(int from, int to);

    /** The address a client uses to reach node {@code id}. */
    InetSocketAddress clientAddress(int id);

    /**
     * The host name of the machine node {@code id} runs on, which its JVM resolves through its private hosts file
     * (servers look up their own name): this machine's by default; empty when it has none.
     */
    default Optional<String> machineName(int id) {
        try {
            return Optional.of(InetAddress.getLocalHost().getHostName());
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
