package io.zkchaos.nemesis.proxy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A blocking echo server on 127.0.0.1 for tests: writes back every byte it reads; counts connections and bytes
 * received, and can send bytes of its own to every open connection ({@link #broadcast}).
 */
public final class EchoServer implements AutoCloseable {
    private final ServerSocket server;
    private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "test-echo");
        t.setDaemon(true);
        return t;
    });
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    public final AtomicInteger accepted = new AtomicInteger();
    public final AtomicLong received = new AtomicLong();

    public EchoServer() throws IOException {
        this(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    }

    /** An echo server bound to {@code address} (a port that must be free). */
    public EchoServer(InetSocketAddress address) throws IOException {
        server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(address, 128);
        pool.execute(this::acceptLoop);
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) server.getLocalSocketAddress();
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                accepted.incrementAndGet();
                sockets.add(s);
                pool.execute(() -> echo(s));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void echo(Socket s) {
        byte[] buf = new byte[16 * 1024];
        try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
            int n;
            while ((n = in.read(buf)) >= 0) {
                received.addAndGet(n);
                synchronized (s) {
                    out.write(buf, 0, n);
                }
            }
        } catch (IOException ignored) {
            // the peer went away
        } finally {
            sockets.remove(s);
        }
    }

    /** Writes {@code bytes} to every open connection; returns how many connections it reached. */
    public int broadcast(byte[] bytes) {
        int n = 0;
        for (Socket s : sockets) {
            try {
                synchronized (s) {
                    s.getOutputStream().write(bytes);
                }
                n++;
            } catch (IOException ignored) {
                // that connection is gone
            }
        }
        return n;
    }

    @Override
    public void close() throws Exception {
        server.close();
        for (Socket s : sockets) {
            s.close();
        }
        pool.shutdownNow();
        if (!pool.awaitTermination(5, TimeUnit.SECONDS)) {
            throw new IllegalStateException("echo server threads did not stop");
        }
    }
}
