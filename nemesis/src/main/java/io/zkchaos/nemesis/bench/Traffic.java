package io.zkchaos.nemesis.bench;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the benchmark's clients do on each of their connections, for a fixed window of time. Each run opens its
 * connections first, starts every client at once and counts what completed within the window.
 */
enum Traffic {
    /** Sends 64 bytes and waits for their echo, over and over: one request in flight per connection. */
    REQUEST_RESPONSE("request/response", "64 B, one in flight per connection", "round trips/s") {
        @Override
        Sample run(Targets t, int connections, Duration window) throws Exception {
            return requestResponse(t.echo(), connections, window);
        }
    },
    /**
     * Keeps 100 requests of 100 bytes in flight per connection (a writer and a reader thread each), as a
     * ZooKeeper client does with asynchronous reads.
     */
    PIPELINED("pipelined", "100 B requests, 100 in flight per connection", "requests/s") {
        @Override
        Sample run(Targets t, int connections, Duration window) throws Exception {
            return pipelined(t.echo(), connections, window);
        }
    },
    /** Streams bytes one way to the sink as fast as it takes them. */
    STREAMING("streaming", "one way, 64 KiB writes", "MB/s") {
        @Override
        Sample run(Targets t, int connections, Duration window) throws Exception {
            return streaming(t.sink(), connections, window);
        }
    };

    static final int PING_BYTES = 64;
    static final int REQUEST_BYTES = 100;
    static final int IN_FLIGHT = 100;

    final String title;
    final String description;
    final String unit;

    Traffic(String title, String description, String unit) {
        this.title = title;
        this.description = description;
        this.unit = unit;
    }

    abstract Sample run(Targets targets, int connections, Duration window) throws Exception;

    /** Where a variant's clients connect: straight to the servers, or to the proxy's links to them. */
    record Targets(String label, InetSocketAddress echo, InetSocketAddress sink) {
    }

    /**
     * What one run measured.
     *
     * @param rate      operations (or MB) per second over the window
     * @param units     operations (or MB) completed
     * @param latencies every round trip's time in ns, for request/response; empty otherwise
     */
    record Sample(double rate, double units, long[] latencies) {
    }

    static Socket connect(InetSocketAddress to) throws IOException {
        Socket s = new Socket();
        s.setTcpNoDelay(true);
        s.connect(to, 5000);
        s.setSoTimeout(30_000);
        return s;
    }

    private static Sample requestResponse(InetSocketAddress to, int connections, Duration window) throws Exception {
        List<Socket> sockets = open(to, connections);
        try {
            CountDownLatch go = new CountDownLatch(1);
            long[][] times = new long[connections][];
            long[] deadline = new long[1];
            Clients clients = new Clients();
            for (int i = 0; i < connections; i++) {
                int c = i;
                clients.start("bench-rr", () -> {
                    Socket s = sockets.get(c);
                    byte[] msg = new byte[PING_BYTES];
                    OutputStream out = s.getOutputStream();
                    DataInputStream in = new DataInputStream(s.getInputStream());
                    long[] t = new long[1 << 16];
                    int n = 0;
                    go.await();
                    long end = deadline[0];
                    long now = System.nanoTime();
                    while (now < end) {
                        out.write(msg);
                        in.readFully(msg);
                        long after = System.nanoTime();
                        if (n == t.length) {
                            t = Arrays.copyOf(t, n * 2);
                        }
                        t[n++] = after - now;
                        now = after;
                    }
                    times[c] = Arrays.copyOf(t, n);
                });
            }
            long t0 = System.nanoTime();
            deadline[0] = t0 + window.toNanos();
            go.countDown();
            clients.join();
            double seconds = (System.nanoTime() - t0) / 1e9;
            long[] all = Arrays.stream(times).flatMapToLong(Arrays::stream).toArray();
            return new Sample(all.length / seconds, all.length, all);
        } finally {
            closeAll(sockets);
        }
    }

    private static Sample pipelined(InetSocketAddress to, int connections, Duration window) throws Exception {
        List<Socket> sockets = open(to, connections);
        try {
            CountDownLatch go = new CountDownLatch(1);
            AtomicLong answered = new AtomicLong();
            long[] deadline = new long[1];
            Clients clients = new Clients();
            for (int i = 0; i < connections; i++) {
                Socket s = sockets.get(i);
                Semaphore inFlight = new Semaphore(IN_FLIGHT);
                clients.start("bench-pipe-w", () -> {
                    OutputStream out = s.getOutputStream();
                    byte[] req = new byte[REQUEST_BYTES];
                    go.await();
                    long end = deadline[0];
                    while (System.nanoTime() < end) {
                        if (inFlight.tryAcquire(10, TimeUnit.MILLISECONDS)) {
                            out.write(req);
                        }
                    }
                });
                clients.start("bench-pipe-r", () -> {
                    DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream(), 64 * 1024));
                    byte[] resp = new byte[REQUEST_BYTES];
                    go.await();
                    long end = deadline[0];
                    while (System.nanoTime() < end) {
                        in.readFully(resp);
                        inFlight.release();
                        answered.incrementAndGet();
                    }
                });
            }
            long t0 = System.nanoTime();
            deadline[0] = t0 + window.toNanos();
            go.countDown();
            // Count what was answered within the window; the threads then drain and stop.
            long sleepMs = window.toMillis();
            Thread.sleep(sleepMs);
            long done = answered.get();
            double seconds = (System.nanoTime() - t0) / 1e9;
            clients.closeUnderReaders(sockets); // unblocks readers waiting for answers to the last requests
            clients.join();
            return new Sample(done / seconds, done, new long[0]);
        } finally {
            closeAll(sockets);
        }
    }

    private static Sample streaming(InetSocketAddress to, int connections, Duration window) throws Exception {
        List<Socket> sockets = open(to, connections);
        try {
            CountDownLatch go = new CountDownLatch(1);
            long[] deadline = new long[1];
            long[] received = new long[connections];
            Clients clients = new Clients();
            for (int i = 0; i < connections; i++) {
                int c = i;
                clients.start("bench-stream", () -> {
                    Socket s = sockets.get(c);
                    OutputStream out = s.getOutputStream();
                    byte[] buf = new byte[64 * 1024];
                    go.await();
                    long end = deadline[0];
                    while (System.nanoTime() < end) {
                        out.write(buf);
                    }
                    s.shutdownOutput();
                    received[c] = new DataInputStream(s.getInputStream()).readLong(); // the sink's count
                });
            }
            long t0 = System.nanoTime();
            deadline[0] = t0 + window.toNanos();
            go.countDown();
            clients.join();
            double seconds = (System.nanoTime() - t0) / 1e9;
            double mb = Arrays.stream(received).sum() / 1e6;
            return new Sample(mb / seconds, mb, new long[0]);
        } finally {
            closeAll(sockets);
        }
    }

    private interface Body {
        void run() throws Exception;
    }

    /** The client threads of one run, and their failures: a run with a failed client has no figure. */
    private static final class Clients {
        private final List<Thread> threads = new ArrayList<>();
        private final java.util.Queue<Exception> failures = new java.util.concurrent.ConcurrentLinkedQueue<>();
        /** Set while a run closes its sockets under its readers: their socket errors are expected then. */
        private volatile boolean closing;

        void start(String name, Body body) {
            Thread t = new Thread(() -> {
                try {
                    body.run();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (Exception e) {
                    if (!(closing && e instanceof java.net.SocketException)) {
                        failures.add(e);
                    }
                }
            }, name);
            t.setDaemon(true);
            t.start();
            threads.add(t);
        }

        void closeUnderReaders(List<Socket> sockets) {
            closing = true;
            closeAll(sockets);
        }

        void join() throws InterruptedException {
            for (Thread t : threads) {
                t.join(TimeUnit.SECONDS.toMillis(60));
                if (t.isAlive()) {
                    throw new IllegalStateException(t.getName() + " did not finish within 60 s");
                }
            }
            Exception failure = failures.poll();
            if (failure != null) {
                throw new IllegalStateException("a benchmark client failed: " + failure, failure);
            }
        }
    }

    private static List<Socket> open(InetSocketAddress to, int n) throws IOException {
        List<Socket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                sockets.add(connect(to));
            }
        } catch (IOException e) {
            closeAll(sockets);
            throw e;
        }
        return sockets;
    }

    private static void closeAll(List<Socket> sockets) {
        for (Socket s : sockets) {
            try {
                s.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }
}
