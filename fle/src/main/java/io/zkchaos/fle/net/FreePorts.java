package io.zkchaos.fle.net;

import java.io.BufferedReader;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Finds listen ports that are free now, for servers that are told their port before they start.
 *
 * <p>Ports are drawn below the kernel's ephemeral range ({@code ip_local_port_range}): a port from inside it can be
 * handed to anyone's next outgoing connection or {@code bind(0)} between the check here and the server's bind (a
 * CI run lost a node to "Address already in use" that way, to a relay the same test opened). Below the range only a
 * process that names the same port itself can take it. Each drawn port must bind on every address asked (a node's
 * quorum port must also be free where a proxy will listen for it), and no port is handed out twice by one instance.
 */
public final class FreePorts {

    private static final Path RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    /** The lowest port drawn: above the well-known and most registered service ports. */
    static final int LOWEST = 10_000;
    private static final int ATTEMPTS = 500;

    private final int low;
    private final int high; // exclusive
    private final Random random;
    private final Set<Integer> handedOut = new HashSet<>();

    /** Draws from below this machine's ephemeral range. */
    public FreePorts() {
        this(ephemeralLow(RANGE), new Random());
    }

    FreePorts(int ephemeralLow, Random random) {
        if (ephemeralLow - LOWEST < 1_000) {
            throw new IllegalStateException("the ephemeral port range starts at " + ephemeralLow
                    + " (" + RANGE + "), leaving no room for fixed listen ports between " + LOWEST + " and it");
        }
        this.low = LOWEST;
        this.high = ephemeralLow;
        this.random = random;
    }

    /** The first port of the kernel's ephemeral range; 32768 (Linux's default) where it cannot be read. */
    static int ephemeralLow(Path range) {
        // read line by line: procfs reports size 0, and a read sized by it stops short ("3" for "32768")
        try (BufferedReader r = Files.newBufferedReader(range)) {
            return Integer.parseInt(r.readLine().trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return 32_768;
        }
    }

    /** A port bindable on every one of {@code addresses} now, never handed out before by this instance. */
    public synchronized int freeOn(List<String> addresses) {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            int port = low + random.nextInt(high - low);
            if (!handedOut.contains(port) && bindableOnAll(addresses, port)) {
                handedOut.add(port);
                return port;
            }
        }
        throw new IllegalStateException("no port in " + low + ".." + (high - 1) + " free on all of " + addresses
                + " after " + ATTEMPTS + " attempts");
    }

    /** {@code n} distinct ports free on loopback. */
    public synchronized List<Integer> onLoopback(int n) {
        List<Integer> ports = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ports.add(freeOn(List.of(InetAddress.getLoopbackAddress().getHostAddress())));
        }
        return ports;
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

    int low() {
        return low;
    }

    int high() {
        return high;
    }
}
