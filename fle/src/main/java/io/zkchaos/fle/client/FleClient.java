package io.zkchaos.fle.client;

import io.zkchaos.fle.wire.Frames;
import io.zkchaos.fle.wire.Wire;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A client of one {@code fle} node, over TCP. Writes sent to a follower are forwarded to the leader and answered once
 * the follower has applied them, so a client's own writes are visible to its later reads on the same node. Plain
 * {@link #get} reads the node's applied state (sequentially consistent, like a ZooKeeper read); {@link #syncGet} goes
 * through the leader and the log (linearizable).
 *
 * <p>Every call ends in one of three ways: a result; {@link RejectedException} when it certainly did not happen (the
 * node does not serve, a cas found another value, the node cannot be reached at all); {@link IndeterminateException}
 * when it is unknown (no answer within the timeout, connection lost, the node lost its leader) — after which the
 * connection is dropped and the next call opens a new one.
 *
 * <p>One call at a time (calls are serialised); not for sharing between logical clients.
 */
public final class FleClient implements AutoCloseable {

    private final InetSocketAddress node;
    private final Duration timeout;
    private Socket socket;
    private DataInputStream in;
    private DataOutputStream out;
    private long nextId;
    private boolean closed;

    /**
     * @param node    the node's client address
     * @param timeout how long to wait for a connection and for each answer
     */
    public FleClient(InetSocketAddress node, Duration timeout) {
        this.node = Objects.requireNonNull(node, "node");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    public InetSocketAddress node() {
        return node;
    }

    /** The value of {@code key} in the node's applied state; {@code null} if absent. */
    public String get(String key) throws FleException {
        DataInputStream r = call(ClientProtocol.GET, o -> Wire.writeString(o, key));
        return read(() -> Wire.readString(r));
    }

    /** A linearizable read: through the leader and the log. */
    public String syncGet(String key) throws FleException {
        DataInputStream r = call(ClientProtocol.SYNC_GET, o -> Wire.writeString(o, key));
        return read(() -> Wire.readString(r));
    }

    /** Sets {@code key}; returns the write's zxid once the node has applied it. */
    public long put(String key, String value) throws FleException {
        Objects.requireNonNull(value, "value");
        DataInputStream r = call(ClientProtocol.PUT, o -> {
            Wire.writeString(o, key);
            Wire.writeString(o, value);
        });
        return read(r::readLong);
    }

    /**
     * Sets {@code key} to {@code value} if it holds {@code expected} ({@code null}: if it is absent); returns the
     * write's zxid. A mismatch is a {@link RejectedException}.
     */
    public long cas(String key, String expected, String value) throws FleException {
        Objects.requireNonNull(value, "value");
        DataInputStream r = call(ClientProtocol.CAS, o -> {
            Wire.writeString(o, key);
            Wire.writeString(o, expected);
            Wire.writeString(o, value);
        });
        return read(r::readLong);
    }

    /** The node's committed log, in zxid order. */
    public List<LogEntry> readLog() throws FleException {
        DataInputStream r = call(ClientProtocol.READ_LOG, o -> { });
        return read(() -> ClientProtocol.readLog(r));
    }

    /** The node's state; answered in any state, also while it elects. */
    public NodeStatus status() throws FleException {
        DataInputStream r = call(ClientProtocol.STATUS, o -> { });
        return read(() -> ClientProtocol.readStatus(r));
    }

    private interface Reader<T> {
        T read() throws IOException;
    }

    private <T> T read(Reader<T> reader) throws IndeterminateException {
        try {
            return reader.read();
        } catch (IOException | RuntimeException e) {
            disconnect();
            throw new IndeterminateException("unreadable answer from " + node + ": " + e, e);
        }
    }

    /** Sends one request and returns the OK answer's body; throws for the other outcomes. */
    private synchronized DataInputStream call(byte op, Wire.Body fields) throws FleException {
        if (closed) {
            throw new RejectedException("the client of " + node + " is closed");
        }
        connect();
        long id = ++nextId;
        byte[] request = Wire.bytes(o -> {
            o.writeLong(id);
            o.writeByte(op);
            fields.write(o);
        });
        try {
            Frames.write(out, request);
            out.flush();
            while (true) {
                DataInputStream r = new DataInputStream(new ByteArrayInputStream(Frames.read(in, Wire.MAX_FRAME)));
                long answerId = r.readLong();
                if (answerId != id) {
                    continue; // an answer to an earlier call that timed out on this connection: not ours
                }
                byte result = r.readByte();
                if (result == ClientProtocol.OK) {
                    return r;
                }
                String reason = Wire.readString(r);
                if (result == ClientProtocol.REJECTED) {
                    throw new RejectedException(reason);
                }
                throw new IndeterminateException(reason);
            }
        } catch (SocketTimeoutException e) {
            disconnect();
            throw new IndeterminateException("no answer from " + node + " within " + timeout.toMillis() + " ms", e);
        } catch (IOException e) {
            disconnect();
            throw new IndeterminateException("connection to " + node + " lost: " + e.getMessage(), e);
        }
    }

    private void connect() throws RejectedException {
        if (socket != null) {
            return;
        }
        Socket s = new Socket();
        try {
            int ms = (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
            s.connect(node, ms);
            s.setSoTimeout(ms);
            s.setTcpNoDelay(true);
            DataOutputStream o = new DataOutputStream(new BufferedOutputStream(s.getOutputStream()));
            o.writeInt(ClientProtocol.MAGIC);
            o.flush();
            socket = s;
            out = o;
            in = new DataInputStream(new BufferedInputStream(s.getInputStream()));
        } catch (IOException e) {
            try {
                s.close();
            } catch (IOException ignored) {
                // nothing to do
            }
            // Nothing was sent: certainly not done.
            throw new RejectedException("cannot connect to " + node + ": " + e.getMessage(), e);
        }
    }

    private void disconnect() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException e) {
                // nothing to do
            }
        }
        socket = null;
        in = null;
        out = null;
    }

    @Override
    public synchronized void close() {
        closed = true;
        disconnect();
    }
}
