package io.zkchaos.fle.net;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A test stand-in for the fault proxy: forwards every connection it accepts to a target, so that the connecting
 * server's source address tells the other side nothing. It counts connections and can cut them all.
 */
public final class TcpRelay implements AutoCloseable {

    private final ServerSocket listener;
    private final InetSocketAddress target;
    private final AtomicInteger accepted = new AtomicInteger();
    private final Set<Socket> live = ConcurrentHashMap.newKeySet();
    private final List<Thread> threads = new CopyOnWriteArrayList<>();
    private volatile boolean blocked;

    public TcpRelay(InetSocketAddress target) throws IOException {
        this.target = target;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread t = new Thread(this::acceptLoop, "relay-accept");
        t.setDaemon(true);
        t.start();
    }

    public InetSocketAddress address() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), listener.getLocalPort());
    }

    /** Connections accepted so far. */
    public int accepted() {
        return accepted.get();
    }

    /** Connections that are up now (each counts its two sockets as one). */
    public int live() {
        return live.size() / 2;
    }

    /** Cuts the link: closes every connection through it, and closes new ones at once (a refused link). */
    public void block() {
        blocked = true;
        cutAll();
    }

    /** Heals the link: new connections go through again. */
    public void unblock() {
        blocked = false;
    }

    /** Closes every connection through the relay (both sides see it end). */
    public void cutAll() {
        for (Socket s : live) {
            close(s);
        }
    }

    private void acceptLoop() {
        while (!listener.isClosed()) {
            try {
                Socket in = listener.accept();
                accepted.incrementAndGet();
                if (blocked) {
                    close(in);
                    continue;
                }
                Socket out = new Socket();
                try {
                    out.connect(target, 2_000);
                } catch (IOException e) {
                    close(in);
                    continue;
                }
                live.add(in);
                live.add(out);
                pipe(in, out);
                pipe(out, in);
            } catch (IOException e) {
                return;
            }
        }
    }

    private void pipe(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[8192];
            try (InputStream i = from.getInputStream(); OutputStream o = to.getOutputStream()) {
                int n;
                while ((n = i.read(buf)) >= 0) {
                    o.write(buf, 0, n);
                    o.flush();
                }
            } catch (IOException e) {
                // one side is gone
            } finally {
                close(from);
                close(to);
            }
        }, "relay-pipe");
        t.setDaemon(true);
        threads.add(t);
        t.start();
    }

    private void close(Socket s) {
        live.remove(s);
        try {
            s.close();
        } catch (IOException e) {
            // nothing to do
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        cutAll();
    }
}
