package io.zkchaos.nemesis.bench;

import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The benchmark's far ends on 127.0.0.1, blocking, one thread per connection: an echo server (writes back every
 * byte it reads) and a sink (counts bytes until EOF, then answers the count as 8 bytes).
 */
final class BenchServers implements AutoCloseable {
    private final ServerSocket echo = new ServerSocket(0, 128, InetAddress.getLoopbackAddress());
    private final ServerSocket sink = new ServerSocket(0, 128, InetAddress.getLoopbackAddress());
    private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "bench-server");
        t.setDaemon(true);
        return t;
    });

    BenchServers() throws IOException {
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
