package io.zkchaos.fle.net;

import io.zkchaos.fle.sched.Scheduler;
import io.zkchaos.fle.wire.Frames;
import io.zkchaos.fle.wire.Wire;
import io.zkchaos.fle.zab.QuorumChannel;
import io.zkchaos.fle.zab.QuorumMessage;
import io.zkchaos.fle.zab.QuorumTransport;
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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The quorum port over TCP: a follower connects to its leader and writes the magic {@code "FLQ1"}; then both sides
 * exchange frames of quorum messages ({@link Wire}). Each channel has a writer thread with an unbounded FIFO queue
 * (so that the node's scheduler never blocks on a slow peer) and a reader thread; every event goes to the node's
 * scheduler, and none for a channel after that channel was closed on the scheduler.
 *
 * <p>The listening socket is bound when the node starts and accepts throughout; a connection that comes while the
 * node does not lead is closed at once, as a refused one would be.
 */
public final class TcpQuorumTransport implements QuorumTransport, AutoCloseable {

    /** "FLQ1": the first bytes of every quorum connection. */
    public static final int MAGIC = 0x464C5131;

    private static final Logger LOG = LoggerFactory.getLogger(TcpQuorumTransport.class);

    private final long myId;
    private final ServerSocket listener;
    private final Function<Long, InetSocketAddress> leaderAddress;
    private final Scheduler scheduler;
    private final int connectTimeoutMs;
    private final String tag;
    private final Set<Channel> channels = ConcurrentHashMap.newKeySet();
    private volatile Handler acceptHandler;
    private volatile boolean closed;
    private final Thread acceptor;

    public TcpQuorumTransport(long myId, ServerSocket listener, Function<Long, InetSocketAddress> leaderAddress,
                              Scheduler scheduler, int connectTimeoutMs) {
        this.myId = myId;
        this.listener = listener;
        this.leaderAddress = leaderAddress;
        this.scheduler = scheduler;
        this.connectTimeoutMs = connectTimeoutMs;
        this.tag = "n" + myId;
        this.acceptor = new Thread(this::acceptLoop, tag + "-quorum-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    @Override
    public AutoCloseable listen(Handler handler) {
        acceptHandler = handler;
        return () -> {
            if (acceptHandler == handler) {
                acceptHandler = null;
            }
        };
    }

    private void acceptLoop() {
        while (!closed) {
            Socket s;
            try {
                s = listener.accept();
            } catch (IOException e) {
                if (!closed) {
                    LOG.warn("{}: quorum listener failed: {}", tag, e.toString());
                }
                return;
            }
            Handler h = acceptHandler;
            if (h == null) {
                closeQuietly(s);
                continue;
            }
            Channel c = new Channel(h, "follower at " + s.getRemoteSocketAddress());
            c.socket = s;
            c.startReading(true);
        }
    }

    @Override
    public QuorumChannel connect(long leaderSid, Handler handler) {
        Channel c = new Channel(handler, "leader " + leaderSid);
        Thread t = new Thread(() -> {
            Socket s = new Socket();
            c.socket = s; // so that a close() while connecting aborts the connect
            try {
                InetSocketAddress addr = leaderAddress.apply(leaderSid);
                s.connect(addr, connectTimeoutMs);
                if (c.dead) {
                    closeQuietly(s);
                    return;
                }
                c.describe = "leader " + leaderSid + " at " + addr;
                c.output().writeInt(MAGIC);
                c.out.flush();
                c.opened();
                c.startReading(false);
            } catch (IOException | RuntimeException e) {
                closeQuietly(s);
                c.failed("cannot connect: " + e);
            }
        }, tag + "-quorum-connect-" + leaderSid);
        t.setDaemon(true);
        t.start();
        return c;
    }

    /** One end of a quorum connection. */
    private final class Channel implements QuorumChannel {
        private final Handler handler;
        private final LinkedBlockingQueue<byte[]> queue = new LinkedBlockingQueue<>();
        private volatile Socket socket;
        private volatile String describe;
        private DataOutputStream out;
        /** Set on the scheduler by {@link #close()}: no callbacks after it. */
        private volatile boolean closedLocally;
        private volatile boolean dead;

        Channel(Handler handler, String describe) {
            this.handler = handler;
            this.describe = describe;
            channels.add(this);
        }

        DataOutputStream output() throws IOException {
            if (out == null) {
                socket.setTcpNoDelay(true);
                socket.setKeepAlive(true);
                out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
            }
            return out;
        }

        /** Starts the reader (and writer); an accepted channel first checks the magic, then reports itself open. */
        void startReading(boolean accepted) {
            Thread r = new Thread(() -> readLoop(accepted), tag + "-quorum-recv");
            r.setDaemon(true);
            r.start();
        }

        private void readLoop(boolean accepted) {
            String reason = "closed by the other side";
            try {
                DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
                if (accepted) {
                    socket.setSoTimeout(Math.max(connectTimeoutMs, 1_000));
                    int magic = in.readInt();
                    if (magic != MAGIC) {
                        LOG.warn("{}: a connection on the quorum port from {} is not a server (magic {})", tag,
                                socket.getRemoteSocketAddress(), Integer.toHexString(magic));
                        kill();
                        return;
                    }
                    socket.setSoTimeout(0);
                    output();
                    opened();
                }
                while (true) {
                    QuorumMessage m = Wire.decodeMessage(Frames.read(in, Wire.MAX_FRAME));
                    scheduler.execute(() -> {
                        if (!closedLocally) {
                            handler.onMessage(this, m);
                        }
                    });
                }
            } catch (EOFException e) {
                reason = "closed by the other side";
            } catch (SocketException e) {
                reason = "connection lost: " + e.getMessage();
            } catch (IOException | RuntimeException e) {
                reason = "bad data: " + e;
                LOG.warn("{}: {} on the channel with {}", tag, reason, describe);
            }
            failed(reason);
        }

        void opened() {
            Thread w = new Thread(this::writeLoop, tag + "-quorum-send");
            w.setDaemon(true);
            w.start();
            scheduler.execute(() -> {
                if (!closedLocally && !dead) {
                    handler.onOpen(this);
                }
            });
        }

        private void writeLoop() {
            try {
                while (!dead) {
                    byte[] b = queue.take();
                    if (b.length == 0) {
                        return;
                    }
                    Frames.write(out, b);
                    if (queue.isEmpty()) {
                        out.flush();
                    }
                }
            } catch (IOException e) {
                failed("write failed: " + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        /** The connection failed or ended: tell the handler (once), unless it was closed on purpose. */
        void failed(String reason) {
            boolean first = !dead;
            kill();
            if (first) {
                scheduler.execute(() -> {
                    if (!closedLocally) {
                        closedLocally = true;
                        handler.onClose(this, reason);
                    }
                });
            }
        }

        private void kill() {
            dead = true;
            channels.remove(this);
            queue.offer(new byte[0]);
            Socket s = socket;
            if (s != null) {
                closeQuietly(s);
            }
        }

        @Override
        public void send(QuorumMessage m) {
            if (!dead && !closedLocally) {
                queue.offer(Wire.encode(m));
            }
        }

        @Override
        public void close() {
            closedLocally = true;
            kill();
        }

        @Override
        public String describe() {
            return describe;
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
        for (Channel c : channels) {
            c.kill();
        }
    }
}
