package io.zkchaos.nemesis.toxiproxy;

import io.zkchaos.nemesis.proxy.FaultProxy;
import java.net.InetSocketAddress;
import java.util.concurrent.CountDownLatch;

/**
 * A Toxiproxy-compatible server process: {@link ToxiproxyServer} over a {@link FaultProxy}, with
 * {@code toxiproxy-server}'s flags: {@code -host H} (default {@code localhost}), {@code -port P} (default 8474),
 * {@code -seed S} (the proxy's random choices; default 0). It is the entry point of the Toxiproxy-compatible image
 * that the Docker backend builds when the official one cannot be pulled; there its links listen on the container's
 * addresses, so it lets links use any address ({@link FaultProxy#ANY_ADDRESS_PROPERTY}). Runs until it is stopped
 * (SIGTERM closes every link).
 */
public final class ToxiproxyMain {

    private ToxiproxyMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        String host = "localhost";
        int port = 8474;
        long seed = 0;
        for (int i = 0; i < args.length; i++) {
            String flag = args[i].replaceFirst("^--?", "");
            String value;
            int eq = flag.indexOf('=');
            if (eq >= 0) {
                value = flag.substring(eq + 1);
                flag = flag.substring(0, eq);
            } else if (i + 1 < args.length) {
                value = args[++i];
            } else {
                System.err.println("toxiproxy: flag -" + flag + " needs a value");
                System.exit(2);
                return;
            }
            try {
                switch (flag) {
                    case "host" -> host = value;
                    case "port" -> port = Integer.parseInt(value);
                    case "seed" -> seed = Long.parseLong(value);
                    default -> {
                        System.err.println("toxiproxy: unknown flag -" + flag + " (known: -host, -port, -seed)");
                        System.exit(2);
                        return;
                    }
                }
            } catch (NumberFormatException e) {
                System.err.println("toxiproxy: -" + flag + " must be a number, was '" + value + "'");
                System.exit(2);
                return;
            }
        }
        System.setProperty(FaultProxy.ANY_ADDRESS_PROPERTY, "true");
        ToxiproxyServer server = ToxiproxyServer.start(new InetSocketAddress(host, port), new FaultProxy(seed));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }, "toxiproxy-shutdown"));
        System.out.println("Toxiproxy API (" + ToxiproxyServer.VERSION + ") listening on " + server.address());
        stopped.await();
    }
}
