package io.zkchaos.harness.cluster.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Finds ports that are free now: asks the kernel for an ephemeral port on the first address, then checks that the
 * same number binds on every other address too (a node's quorum port must also be free on each address where a
 * proxy will listen for it). Ports are found, never assumed; another process can still take one before it is
 * used, which start-up then reports as a bind failure in the node's log.
 */
final class Ports {

    private final Set<Integer> handedOut = new HashSet<>();

    /** A port bindable on every one of {@code addresses}, different from every port this instance handed out. */
    synchronized int freeOn(List<String> addresses) {
        for (int attempt = 0; attempt < 200; attempt++) {
            int port;
            try (ServerSocket s = new ServerSocket()) {
                s.setReuseAddress(true);
                s.bind(new InetSocketAddress(InetAddress.getByName(addresses.get(0)), 0));
                port = s.getLocalPort();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot bind any port on " + addresses.get(0), e);
            }
            if (handedOut.contains(port) || !bindableOnAll(addresses, port)) {
                continue;
            }
            handedOut.add(port);
            return port;
        }
        throw new IllegalStateException("no port free on all of " + addresses + " after 200 attempts");
    }

    private static boolean bindableOnAll(List<String> addresses, int port) {
        List<ServerSocket> held = new ArrayList<>();
        try {
            for (String a : addresses) {
                ServerSocket s = new ServerSocket();
                held.add(s);
                s.setReuseAddress(true);
                s.bind(new InetSocketAddress(InetAddress.getByName(a), port));
            }
            return true;
        } catch (IOException e) {
            return false;
        } finally {
            for (ServerSocket s : held) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // closing a probe socket: nothing to do
                }
            }
        }
    }
}
