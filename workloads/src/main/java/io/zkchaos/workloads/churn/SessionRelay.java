package io.zkchaos.workloads.churn;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * A TCP relay on loopback that carries one churn session's connections to the servers, so that the churner can take
 * the session away from its client the two ways a client goes away without closing: {@link #silence()} (nothing passes
 * any more, the servers' ends of the connections stay open: a client that hangs or is cut off by the network, whose
 * session the servers must expire by its timeout) and {@link #sever()} (every connection closed, as the kernel of a
 * killed client process closes its sockets: the servers see the connection end, then nothing). Each connection the
 * client makes goes to the next server of the list in turn, through the same addresses the workload's clients use
 * (the fault proxy's), so client faults and partitions reach the session too. After either cut, new connections are
 * accepted and closed at once, never relayed, until {@link #resume()}. Public for the sessions workload, which cuts
 * a share of its sessions off this way ({@code io.zkchaos.workloads.sessions}).
 */
public final class SessionRelay implements AutoCloseable {

    private static final int CONNECT_TIMEOUT_MS = 2_000;
    private static final int BUFFER = 16 * 1024;

    private final ServerSocket listener;
    private final List<InetSocketAddress> servers;
    private final Object lock = new Object();
    private final List<Socket> clientEnds = new ArrayList<>();
    private final List<Socket> serverEnds = new ArrayList<>();
    private int next;
    private boolean cut;
    private boolean closed;

    private SessionRelay(ServerSocket listener, List<InetSocketAddress> servers, int first) {
        this.listener = listener;
        this.servers = servers;
        this.next = first;
    }

    /**
     * A relay listening on an ephemeral loopback port, relaying to {@code servers} ({@code host:port} each) in turn
     * from the {@code first}.
     */
    public static SessionRelay open(List<String> servers, int first, String name) throws IOException {
        List<InetSocketAddress> addresses = servers.stream().map(SessionRelay::address).toList();
        ServerSocket listener = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
        SessionRelay relay = new SessionRelay(listener, addresses, Math.floorMod(first, addresses.size()));
        thread(name + "-accept", relay::accept).start();
        return relay;
    }

    /** The address the session's client connects to. */
    public String connectString() {
        return listener.getInetAddress().getHostAddress() + ":" + listener.getLocalPort();
    }

    /**
     * From now on no byte passes either way. The client's ends are closed (its handle is stopped next); the servers'
     * ends stay open and silent until a server hangs up (when it expires the session) or the relay is closed.
     */
    public void silence() {
        synchronized (lock) {
            cut = true;
            clientEnds.forEach(SessionRelay::closeQuietly);
        }
    }

    /**
     * After a {@link #silence()}: new connections are relayed again, so the client, reconnecting, hears from a
     * server what became of its session. The connections silenced stay dead.
     */
    public void resume() {
        synchronized (lock) {
            if (!closed) {
                cut = false;
            }
        }
    }

    /** Every connection closed at both ends, as a killed client's are; none relayed from now on. */
    void sever() {
        synchronized (lock) {
            cut = true;
            clientEnds.forEach(SessionRelay::closeQuietly);
            serverEnds.forEach(SessionRelay::closeQuietly);
        }
    }

    /** Stops accepting: the client that used it has stopped. Silenced servers' ends stay as they are. */
    void stopListening() {
        closeQuietly(listener);
    }

    /** Everything closed: the listener and every connection. */
    @Override
    public void close() {
        synchronized (lock) {
            closed = true;
            cut = true;
            clientEnds.forEach(SessionRelay::closeQuietly);
            serverEnds.forEach(SessionRelay::closeQuietly);
        }
        closeQuietly(listener);
    }

    private void accept() {
        while (!listener.isClosed()) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                return; // closed
            }
            InetSocketAddress server;
            synchronized (lock) {
                if (cut) {
                    closeQuietly(client);
                    continue;
                }
                server = servers.get(next);
                next = (next + 1) % servers.size();
            }
            thread("relay-connect", () -> connect(client, server)).start();
        }
    }

    private void connect(Socket client, InetSocketAddress address) {
        Socket server = new Socket();
        try {
            server.setTcpNoDelay(true);
            client.setTcpNoDelay(true);
            server.connect(address, CONNECT_TIMEOUT_MS);
        } catch (IOException e) {
            closeQuietly(server);
            closeQuietly(client); // the client tries again, and gets the next server
            return;
        }
        synchronized (lock) {
            if (cut || closed) {
                closeQuietly(server);
                closeQuietly(client);
                return;
            }
            clientEnds.add(client);
            serverEnds.add(server);
        }
        thread("relay-up", () -> pump(client, server, false)).start();
        thread("relay-down", () -> pump(server, client, true)).start();
    }

    /**
     * Copies {@code from} to {@code to} until either ends. Before the cut an end closes the other (the relay is
     * transparent); after a silence, nothing is copied and the servers' ends are left alone until a server hangs up.
     */
    private void pump(Socket from, Socket to, boolean fromServer) {
        byte[] buffer = new byte[BUFFER];
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            int n;
            while ((n = in.read(buffer)) >= 0) {
                synchronized (lock) {
                    if (cut) {
                        if (fromServer) {
                            continue; // silenced: read and drop until the server hangs up
                        }
                        return;
                    }
                }
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // an end closed: handled below
        }
        synchronized (lock) {
            if (!cut) {
                closeQuietly(from);
                closeQuietly(to);
            } else if (fromServer) {
                closeQuietly(from); // the server hung up on a silenced session
            }
        }
    }

    private static InetSocketAddress address(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("not host:port: " + hostPort);
        }
        return new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
    }

    private static Thread thread(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            // closing what may be closed already
        }
    }
}
