package io.zkchaos.fle.net;

import io.zkchaos.fle.election.ElectionTransport;
import io.zkchaos.fle.election.Notification;
import io.zkchaos.fle.sched.Scheduler;
import io.zkchaos.fle.wire.Frames;
import io.zkchaos.fle.wire.Wire;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The election port, as ZooKeeper's QuorumCnxManager runs it: exactly one TCP connection per pair of servers, and it
 * is the one the larger SID initiated. A server connecting to a larger one sends its handshake and hangs up (the
 * larger one calls back); a server receiving a connection from a smaller one hangs up and calls back. Peers are known
 * by the SID in the handshake, never by the address they connect from (a fault proxy stands in between).
 *
 * <p>Per peer: a send queue that keeps only the newest message (ZooKeeper's capacity of one), a sender thread and a
 * receiver thread; received notifications go to the node's scheduler. The last message sent to a peer is sent again
 * whenever a connection to it starts with an empty queue, so receivers see duplicates (which FLE tolerates).
 *
 * <pre>
 * handshake = magic:int ("FLE1") sid:long          then frames of 36-byte notifications (see {@link Wire})
 * </pre>
 */
public final class ElectionConnectionManager implements ElectionTransport, AutoCloseable {

    /** "FLE1": the first bytes of every election connection. */
    public static final int MAGIC = 0x464C4531;

    private static final Logger LOG = LoggerFactory.getLogger(ElectionConnectionManager.class);

    private final long myId;
    private final ServerSocket listener;
    private final Function<Long, InetSocketAddress> peerAddress;
    private final Set<Long> peers;
    private final Scheduler scheduler;
    private final int connectTimeoutMs;
    private final String tag;

    private final Map<Long, BlockingQueue<byte[]>> queues = new ConcurrentHashMap<>();
    private final Map<Long, byte[]> lastMessageSent = new ConcurrentHashMap<>();
    private final Map<Long, Connection> connections = new ConcurrentHashMap<>();
    private final Set<Long> connecting = ConcurrentHashMap.newKeySet();
    /** Peers a connection was asked for since their connect task last looked (a request is never dropped). */
    private final Set<Long> connectWanted = ConcurrentHashMap.newKeySet();
    /** The newest sender thread per peer: the next connection's sender waits for it (see {@link Connection}). */
    private final Map<Long, Thread> lastSender = new ConcurrentHashMap<>();
    private final ExecutorService connector;
    private volatile Receiver receiver;
    private volatile boolean closed;
    private Thread acceptor;

    /**
     * @param listener    the bound election socket (bound by the caller, so that a port in use is reported at start)
     * @param peerAddress where to connect to reach each peer, resolved at every attempt (so a hosts file applies)
     * @param peers       the other servers' SIDs
     */
    public ElectionConnectionManager(long myId, ServerSocket listener, Function<Long, InetSocketAddress> peerAddress,
                                     Set<Long> peers, Scheduler scheduler, int connectTimeoutMs) {
        this.myId = myId;
        this.listener = listener;
        this.peerAddress = peerAddress;
        this.peers = Set.copyOf(peers);
        this.scheduler = scheduler;
        this.connectTimeoutMs = connectTimeoutMs;
        this.tag = "n" + myId;
        this.connector = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "n" + myId + "-election-connect");
            t.setDaemon(true);
            return t;
        });
        for (long p : this.peers) {
            queues.put(p, new ArrayBlockingQueue<>(1));
        }
    }

    @Override
    public void start(Receiver r) {
        this.receiver = r;
        acceptor = new Thread(this::acceptLoop, tag + "-election-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    // ---- sending

    @Override
    public void send(long toSid, Notification n) {
        if (closed) {
            return;
        }
        if (toSid == myId) {
            Receiver r = receiver;
            scheduler.execute(() -> r.onNotification(myId, n));
            return;
        }
        BlockingQueue<byte[]> q = queues.get(toSid);
        if (q == null) {
            LOG.warn("{}: no such peer {}", tag, toSid);
            return;
        }
        byte[] b = Wire.encode(n);
        // Keep only the newest message, as ZooKeeper's queue of capacity one does.
        while (!q.offer(b)) {
            q.poll();
        }
        if (!connections.containsKey(toSid)) {
            connectAsync(toSid);
        }
    }

    @Override
    public boolean haveDelivered() {
        for (BlockingQueue<byte[]> q : queues.values()) {
            if (q.isEmpty()) {
                return true;
            }
        }
        return queues.isEmpty();
    }

    /** Whether the send queue to {@code sid} is drained (for tests). */
    public boolean drained(long sid) {
        BlockingQueue<byte[]> q = queues.get(sid);
        return q == null || q.isEmpty();
    }

    @Override
    public void connectAll() {
        for (long p : peers) {
            if (!connections.containsKey(p)) {
                connectAsync(p);
            }
        }
    }

    /** Whether a connection to {@code sid} is up now (for tests and status). */
    public boolean connected(long sid) {
        return connections.containsKey(sid);
    }

    /**
     * Asks for a connection to {@code sid}. A request made while a connect task for that peer runs is not dropped:
     * the task attempts again. That task may be the call-back that made the very connection the request replaces (a
     * smaller SID connected again), so dropping the request would leave the pair with no connection.
     */
    private void connectAsync(long sid) {
        if (closed) {
            return;
        }
        connectWanted.add(sid);
        if (!connecting.add(sid)) {
            return; // the running task sees the request
        }
        try {
            connector.execute(() -> connectWhileWanted(sid));
        } catch (RejectedExecutionException e) {
            connecting.remove(sid);
        }
    }

    private void connectWhileWanted(long sid) {
        try {
            while (!closed && connectWanted.remove(sid)) {
                connectOne(sid);
            }
        } finally {
            connecting.remove(sid);
        }
        // A request made after the loop's last look but before the task let go of the peer.
        if (connectWanted.contains(sid)) {
            connectAsync(sid);
        }
    }

    private void connectOne(long sid) {
        if (closed || connections.containsKey(sid)) {
            return;
        }
        InetSocketAddress addr;
        try {
            addr = peerAddress.apply(sid);
        } catch (RuntimeException e) {
            LOG.warn("{}: cannot resolve the election address of {}: {}", tag, sid, e.getMessage());
            return;
        }
        Socket s = new Socket();
        try {
            s.setTcpNoDelay(true);
            s.connect(addr, connectTimeoutMs);
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(s.getOutputStream()));
            out.writeInt(MAGIC);
            out.writeLong(myId);
            out.flush();
            if (sid > myId) {
                // Only the larger SID keeps a connection it initiated: it will call back.
                LOG.debug("{}: connected to the larger {}; hanging up for it to call back", tag, sid);
                closeQuietly(s);
                return;
            }
            startConnection(sid, s, new DataInputStream(new BufferedInputStream(s.getInputStream())), out);
        } catch (IOException e) {
            LOG.debug("{}: cannot connect to {} at {}: {}", tag, sid, addr, e.toString());
            closeQuietly(s);
        }
    }

    // ---- receiving connections

    private void acceptLoop() {
        while (!closed) {
            Socket s;
            try {
                s = listener.accept();
            } catch (IOException e) {
                if (!closed) {
                    LOG.warn("{}: election listener failed: {}", tag, e.toString());
                }
                return;
            }
            try {
                connector.execute(() -> handshake(s));
            } catch (RejectedExecutionException e) {
                closeQuietly(s);
            }
        }
    }

    private void handshake(Socket s) {
        try {
            s.setTcpNoDelay(true);
            s.setSoTimeout(Math.max(connectTimeoutMs, 1_000));
            DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream()));
            int magic = in.readInt();
            if (magic != MAGIC) {
                LOG.warn("{}: a connection on the election port from {} is not a server (magic {})", tag,
                        s.getRemoteSocketAddress(), Integer.toHexString(magic));
                closeQuietly(s);
                return;
            }
            long sid = in.readLong();
            s.setSoTimeout(0);
            if (sid == myId || !peers.contains(sid)) {
                LOG.warn("{}: a connection on the election port claims SID {}, which is not a peer", tag, sid);
                closeQuietly(s);
                return;
            }
            if (sid < myId) {
                // The smaller SID connected: drop it (and what we had with it, which it evidently lost) and call
                // back.
                LOG.debug("{}: {} connected; hanging up and calling back", tag, sid);
                Connection old = connections.get(sid);
                if (old != null) {
                    old.close();
                }
                closeQuietly(s);
                connectAsync(sid);
                return;
            }
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(s.getOutputStream()));
            startConnection(sid, s, in, out);
        } catch (IOException e) {
            LOG.debug("{}: election handshake from {} failed: {}", tag, s.getRemoteSocketAddress(), e.toString());
            closeQuietly(s);
        }
    }

    // Synchronized: two connections from the same larger peer may be handed over at once, and each new sender
    // must know the one before it.
    private synchronized void startConnection(long sid, Socket s, DataInputStream in, DataOutputStream out) {
        Connection c = new Connection(sid, s, in, out, lastSender.get(sid));
        lastSender.put(sid, c.sender);
        Connection old = connections.put(sid, c);
        if (old != null) {
            old.close();
        }
        if (closed) {
            c.close();
            return;
        }
        LOG.debug("{}: election connection with {} up", tag, sid);
        c.start();
    }

    /** One live connection with its sender and receiver threads. */
    private final class Connection {
        final long sid;
        final Socket socket;
        final DataInputStream in;
        final DataOutputStream out;
        final Thread sender;
        final Thread reader;
        /** The sender of the connection before this one, which may still hold a message it took from the queue. */
        final Thread previousSender;
        volatile boolean done;

        Connection(long sid, Socket socket, DataInputStream in, DataOutputStream out, Thread previousSender) {
            this.sid = sid;
            this.previousSender = previousSender;
            this.socket = socket;
            this.in = in;
            this.out = out;
            this.sender = new Thread(this::sendLoop, tag + "-election-send-" + sid);
            this.reader = new Thread(this::readLoop, tag + "-election-recv-" + sid);
            sender.setDaemon(true);
            reader.setDaemon(true);
        }

        void start() {
            sender.start();
            reader.start();
        }

        void sendLoop() {
            BlockingQueue<byte[]> q = queues.get(sid);
            try {
                // Let the previous sender finish first: a message it took from the queue and wrote into a socket
                // that was closing is recorded as the last one sent (and so sent again below) only once it is done;
                // looking earlier could find the queue empty and nothing recorded, and the message lost.
                if (previousSender != null) {
                    previousSender.join();
                }
                if (q.isEmpty()) {
                    byte[] last = lastMessageSent.get(sid);
                    if (last != null) {
                        write(last);
                    }
                }
                while (!done) {
                    byte[] b = q.poll(1, TimeUnit.SECONDS);
                    if (b != null) {
                        try {
                            write(b);
                        } catch (IOException e) {
                            // Not sent: put it back for the next connection (unless a newer message took its place),
                            // so that a connection replaced under this sender does not swallow it.
                            q.offer(b);
                            throw e;
                        }
                        lastMessageSent.put(sid, b);
                    }
                }
            } catch (IOException e) {
                LOG.debug("{}: sending to {} failed: {}", tag, sid, e.toString());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                close();
            }
        }

        private void write(byte[] b) throws IOException {
            Frames.write(out, b);
            out.flush();
        }

        void readLoop() {
            try {
                while (!done) {
                    byte[] b = Frames.read(in, 1024);
                    Notification n = Wire.decodeNotification(b);
                    Receiver r = receiver;
                    scheduler.execute(() -> r.onNotification(sid, n));
                }
            } catch (EOFException | SocketException e) {
                LOG.debug("{}: election connection with {} closed: {}", tag, sid, e.toString());
            } catch (IOException | RuntimeException e) {
                LOG.warn("{}: bad data from {} on the election port: {}", tag, sid, e.toString());
            } finally {
                close();
            }
        }

        void close() {
            if (done) {
                return;
            }
            done = true;
            connections.remove(sid, this);
            closeQuietly(socket);
            sender.interrupt();
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // nothing to do
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            listener.close();
        } catch (IOException e) {
            // nothing to do
        }
        connections.values().forEach(Connection::close);
        connector.shutdownNow();
    }
}
