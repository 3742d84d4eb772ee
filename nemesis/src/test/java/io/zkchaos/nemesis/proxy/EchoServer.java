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

/** A blocking echo server on 127.0.0.1 for tests: writes back every byte it reads; counts connections. */
final class EchoServer implements AutoCloseable {
    private final ServerSocket server;
    private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "test-echo");
        t.setDaemon(true);
        return t;
    });
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    final AtomicInteger accepted = new AtomicInteger();

    EchoServer() throws IOException {
        server = new ServerSocket(0, 128, InetAddress.getLoopbackAddress());
        pool.execute(this::acceptLoop);
    }

    InetSocketAddress address() {
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
                out.write(buf, 0, n);
            }
        } catch (IOException ignored) {
            // the peer went away
        } finally {
            sockets.remove(s);
        }
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
