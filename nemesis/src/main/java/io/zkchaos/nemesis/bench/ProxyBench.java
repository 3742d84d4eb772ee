package io.zkchaos.nemesis.bench;

import io.zkchaos.nemesis.net.Link;
import io.zkchaos.nemesis.proxy.FaultProxy;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Measures what the embedded fault proxy costs on loopback, with no toxic: request/response latency (a 64-byte
 * ping-pong) and one-way throughput (one and four connections), each direct and through the proxy.
 *
 * <p>Run: {@code java -cp <nemesis classes + slf4j-api> io.zkchaos.nemesis.bench.ProxyBench [pings] [MiB] [rounds]}
 * (defaults 20000 pings, 256 MiB, 3 rounds). It starts its own echo and sink servers on 127.0.0.1 and stops them.
 */
public final class ProxyBench {
    private ProxyBench() {
    }

    public static void main(String[] args) throws Exception {
        int pings = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        long mib = args.length > 1 ? Long.parseLong(args[1]) : 256;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        System.out.printf(Locale.ROOT, "ProxyBench: %d rounds of %d pings of 64 B and %d MiB per throughput run;"
                + " Java %s, %d cpus, load average %s%n", rounds, pings, mib, System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(), loadAverage());
        try (Servers servers = new Servers(); FaultProxy proxy = new FaultProxy(1)) {
            InetSocketAddress any = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
            Link echo = proxy.createLink("bench-echo", any, servers.echoAddress());
            Link sink = proxy.createLink("bench-sink", any, servers.sinkAddress());

            // Warm both paths up so the JIT has compiled the proxy loop before anything is timed.
            pingPong(servers.echoAddress(), pings / 4);
            pingPong(echo.listenAddress(), pings / 4);
            stream(servers.sinkAddress(), 64L << 20, 1);
            stream(sink.listenAddress(), 64L << 20, 1);

            // Direct and proxied runs alternate, so load from elsewhere on the machine hits both alike.
            List<long[]> direct = new ArrayList<>();
            List<long[]> proxied = new ArrayList<>();
            int[] connCounts = {1, 4};
            double[][][] mbps = new double[connCounts.length][2][rounds];
            for (int r = 0; r < rounds; r++) {
                direct.add(pingPong(servers.echoAddress(), pings));
                proxied.add(pingPong(echo.listenAddress(), pings));
                for (int c = 0; c < connCounts.length; c++) {
                    mbps[c][0][r] = stream(servers.sinkAddress(), mib << 20, connCounts[c]);
                    mbps[c][1][r] = stream(sink.listenAddress(), mib << 20, connCounts[c]);
                }
            }
            System.out.println();
            System.out.println("round trip of 64 B (µs)      p50      p90      p99     mean");
            printLatency("direct", concat(direct));
            printLatency("through proxy", concat(proxied));

            System.out.println();
            System.out.println("one-way throughput, MB/s    median  (min..max over rounds)");
            for (int c = 0; c < connCounts.length; c++) {
                double d = median(mbps[c][0]);
                double p = median(mbps[c][1]);
                System.out.printf(Locale.ROOT, "direct, %d connection(s)  %8.0f  (%.0f..%.0f)%n", connCounts[c], d,
                        min(mbps[c][0]), max(mbps[c][0]));
                System.out.printf(Locale.ROOT, "proxy,  %d connection(s)  %8.0f  (%.0f..%.0f)  %.0f%% of direct%n",
                        connCounts[c], p, min(mbps[c][1]), max(mbps[c][1]), 100 * p / d);
            }
            System.out.printf(Locale.ROOT, "%nproxy counters: echo %s%n                sink %s%n", echo.stats(),
                    sink.stats());
        }
    }

    private static String loadAverage() {
        try {
            return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).trim().split(" ", 4)[0];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    private static long[] concat(List<long[]> parts) {
        return parts.stream().flatMapToLong(Arrays::stream).toArray();
    }

    private static double median(double[] xs) {
        double[] s = xs.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    private static double min(double[] xs) {
        return Arrays.stream(xs).min().orElse(0);
    }

    private static double max(double[] xs) {
        return Arrays.stream(xs).max().orElse(0);
    }

    private static void printLatency(String label, long[] nanos) {
        long[] s = nanos.clone();
        Arrays.sort(s);
        double mean = Arrays.stream(s).average().orElse(0);
        System.out.printf(Locale.ROOT, "%-22s %8.1f %8.1f %8.1f %8.1f%n", label, s[s.length / 2] / 1e3,
                s[(int) (s.length * 0.9)] / 1e3, s[(int) (s.length * 0.99)] / 1e3, mean / 1e3);
    }

    /** Sends 64 bytes and waits for their echo, {@code n} times; returns each round trip in ns. */
    private static long[] pingPong(InetSocketAddress to, int n) throws IOException {
        long[] times = new long[n];
        byte[] msg = new byte[64];
        try (Socket s = new Socket()) {
            s.setTcpNoDelay(true);
            s.connect(to, 2000);
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            DataInputStream in = new DataInputStream(s.getInputStream());
            for (int i = 0; i < n; i++) {
                long t0 = System.nanoTime();
                out.write(msg);
                in.readFully(msg);
                times[i] = System.nanoTime() - t0;
            }
        }
        return times;
    }

    /** Streams {@code bytes} split over {@code conns} connections to the sink; returns MB/s (10^6 B/s). */
    private static double stream(InetSocketAddress to, long bytes, int conns) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(conns);
        try {
            long per = bytes / conns;
            long t0 = System.nanoTime();
            List<Future<Long>> done = new ArrayList<>();
            for (int i = 0; i < conns; i++) {
                done.add(pool.submit(() -> {
                    try (Socket s = new Socket()) {
                        s.connect(to, 2000);
                        s.setSoTimeout(60_000);
                        OutputStream out = s.getOutputStream();
                        byte[] buf = new byte[64 * 1024];
                        for (long sent = 0; sent < per; sent += buf.length) {
                            out.write(buf, 0, (int) Math.min(buf.length, per - sent));
                        }
                        s.shutdownOutput();
                        return new DataInputStream(s.getInputStream()).readLong(); // the sink's count
                    }
                }));
            }
            long received = 0;
            for (Future<Long> f : done) {
                received += f.get(120, TimeUnit.SECONDS);
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            if (received != per * conns) {
                throw new IllegalStateException("sink received " + received + " bytes, expected " + per * conns);
            }
            return received / seconds / 1e6;
        } finally {
            pool.shutdownNow();
        }
    }

    /** An echo server and a sink (counts bytes until EOF, answers the count) on 127.0.0.1, thread per connection. */
    private static final class Servers implements AutoCloseable {
        private final ServerSocket echo = new ServerSocket(0, 64, InetAddress.getLoopbackAddress());
        private final ServerSocket sink = new ServerSocket(0, 64, InetAddress.getLoopbackAddress());
        private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "bench-server");
            t.setDaemon(true);
            return t;
        });

        Servers() throws IOException {
            pool.execute(() -> serve(echo, true));
            pool.execute(() -> serve(sink, false));
        }

        InetSocketAddress echoAddress() {
            return (InetSocketAddress) echo.getLocalSocketAddress();
        }

        InetSocketAddress sinkAddress() {
            return (InetSocketAddress) sink.getLocalSocketAddress();
        }

        private void serve(ServerSocket server, boolean isEcho) {
            while (!server.isClosed()) {
                try {
                    Socket s = server.accept();
                    s.setTcpNoDelay(true);
                    pool.execute(() -> handle(s, isEcho));
                } catch (IOException e) {
                    return;
                }
            }
        }

        private static void handle(Socket s, boolean isEcho) {
            byte[] buf = new byte[64 * 1024];
            try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
                long count = 0;
                int n;
                while ((n = in.read(buf)) >= 0) {
                    if (isEcho) {
                        out.write(buf, 0, n);
                    }
                    count += n;
                }
                if (!isEcho) {
                    new DataOutputStream(out).writeLong(count);
                }
            } catch (IOException ignored) {
                // the client went away
            }
        }

        @Override
        public void close() throws IOException, InterruptedException {
            echo.close();
            sink.close();
            pool.shutdownNow();
            pool.awaitTermination(5, TimeUnit.SECONDS);
        }
    }
}
