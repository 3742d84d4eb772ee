package io.zkchaos.harness.cluster.local;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * The loopback address plan of a local ensemble of N nodes, from a base address B (all of 127/8 reaches the
 * loopback interface on Linux, so every address below is bindable without configuration):
 * <ul>
 *   <li>node i (1-based) binds {@code B + i - 1} (its client, quorum and election ports);</li>
 *   <li>the proxy of the link from node i to node j listens on {@code B + 16 * i + j - 1}, on node j's own quorum
 *       and election port numbers. Node i resolves j's host name to that address, so the port numbers in every
 *       node's configuration are the same and only name resolution differs per node.</li>
 * </ul>
 */
public record Addresses(int base) {

    /** Nodes per ensemble this plan supports; link addresses are spaced by this. */
    public static final int STRIDE = 16;

    public static Addresses of(String baseAddress, int nodes) {
        try {
            byte[] b = InetAddress.getByName(baseAddress).getAddress();
            int base = ((b[0] & 0xff) << 24) | ((b[1] & 0xff) << 16) | ((b[2] & 0xff) << 8) | (b[3] & 0xff);
            Addresses a = new Addresses(base);
            String last = a.link(nodes, nodes);
            if (!last.startsWith("127.")) {
                throw new IllegalArgumentException("baseAddress: " + baseAddress + " leaves no room for the link "
                        + "addresses of " + nodes + " nodes inside 127/8 (highest would be " + last + ")");
            }
            return a;
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("baseAddress: not an address: " + baseAddress, e);
        }
    }

    /** The address node {@code i} (1-based) binds. */
    public String node(int i) {
        return format(base + i - 1);
    }

    /** The address the proxy of the link from node {@code from} to node {@code to} listens on. */
    public String link(int from, int to) {
        return format(base + STRIDE * from + to - 1);
    }

    private static String format(int ip) {
        return ((ip >>> 24) & 0xff) + "." + ((ip >>> 16) & 0xff) + "." + ((ip >>> 8) & 0xff) + "." + (ip & 0xff);
    }
}
