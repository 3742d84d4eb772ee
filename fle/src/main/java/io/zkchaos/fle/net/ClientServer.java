package io.zkchaos.fle.net;

import io.zkchaos.fle.BugPaths;
import io.zkchaos.fle.Zxid;
import io.zkchaos.fle.client.ClientProtocol;
import io.zkchaos.fle.client.LogEntry;
import io.zkchaos.fle.client.NodeStatus;
import io.zkchaos.fle.election.ServerState;
import io.zkchaos.fle.peer.ClientReply;
import io.zkchaos.fle.peer.ClientRequest;
import io.zkchaos.fle.peer.PeerStatus;
import io.zkchaos.fle.peer.QuorumPeer;
import io.zkchaos.fle.sched.Scheduler;
import io.zkchaos.fle.wire.Frames;
import io.zkchaos.fle.wire.Wire;
import io.zkchaos.fle.zab.Txn;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client port: the binary protocol of {@link ClientProtocol}, and ZooKeeper's four-letter words {@code srvr},
 * {@code stat} and {@code ruok} for tools that already speak them (the harness's status poller does). Status is
 * answered from the node's last published state without waiting for its scheduler, so it comes at once even while
 * the node elects or writes.
 */
public final class ClientServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ClientServer.class);

    private final ServerSocket listener;
    private final QuorumPeer peer;
    private final Scheduler scheduler;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    public ClientServer(ServerSocket listener, QuorumPeer peer, Scheduler scheduler) {
        this.listener = listener;
        this.peer = peer;
        this.scheduler = scheduler;
    }

    public void start() {
        Thread t = new Thread(this::acceptLoop, "n" + peer.myId() + "-client-accept");
        t.setDaemon(true);
        t.start();
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket s = listener.accept();
                sockets.add(s);
                Thread t = new Thread(() -> serve(s), "n" + peer.myId() + "-client");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                if (!closed) {
                    LOG.warn("client listener failed: {}", e.toString());
                }
                return;
            }
        }
    }

    private void serve(Socket s) {
        try (s) {
            s.setTcpNoDelay(true);
            DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream()));
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(s.getOutputStream()));
            byte[] first = new byte[4];
            in.readFully(first);
            int magic = ((first[0] & 0xff) << 24) | ((first[1] & 0xff) << 16) | ((first[2] & 0xff) << 8)
                    | (first[3] & 0xff);
            if (magic == ClientProtocol.MAGIC) {
                session(in, out);
            } else {
                out.write(fourLetterWord(new String(first, StandardCharsets.US_ASCII)).getBytes(
                        StandardCharsets.UTF_8));
                out.flush();
            }
        } catch (EOFException | SocketException e) {
            // the client went away
        } catch (IOException | RuntimeException e) {
            LOG.debug("client connection from {} failed: {}", s.getRemoteSocketAddress(), e.toString());
        } finally {
            sockets.remove(s);
        }
    }

    /** ZooKeeper's {@code srvr} as far as it applies; no {@code Mode:} line while not serving. */
    String fourLetterWord(String word) {
        PeerStatus st = peer.status();
        return switch (word) {
            case "ruok" -> "imok";
            case "srvr", "stat" -> {
                StringBuilder b = new StringBuilder("Zookeeper version: zk-chaos fle node " + st.myId() + "\n");
                if (!st.serving()) {
                    b.append("This ZooKeeper instance is not currently serving requests\n");
                } else {
                    b.append("Mode: ").append(st.state() == ServerState.LEADING ? "leader" : "follower").append('\n');
                }
                b.append("Zxid: ").append(Zxid.hex(st.lastZxid())).append('\n');
                b.append("State: ").append(st.state()).append('\n');
                b.append("Serving: ").append(st.serving()).append('\n');
                b.append("Leader: ").append(st.leader()).append('\n');
                b.append("Epoch: ").append(st.currentEpoch()).append('\n');
                b.append("Accepted epoch: ").append(st.acceptedEpoch()).append('\n');
                b.append("Committed: ").append(Zxid.hex(st.committedZxid())).append('\n');
                b.append("Election round: ").append(st.round()).append('\n');
                if (!st.bugPaths().isEmpty()) {
                    b.append(BugPaths.SRVR_LINE).append(' ').append(BugPaths.show(st.bugPaths())).append('\n');
                }
                yield b.toString();
            }
            default -> "unknown command '" + word.replaceAll("[^ -~]", "?") + "': try srvr, stat or ruok\n";
        };
    }

    private void session(DataInputStream in, DataOutputStream out) throws IOException {
        LinkedBlockingQueue<byte[]> answers = new LinkedBlockingQueue<>();
        Thread writer = new Thread(() -> {
            try {
                while (true) {
                    byte[] b = answers.take();
                    if (b.length == 0) {
                        return;
                    }
                    Frames.write(out, b);
                    if (answers.isEmpty()) {
                        out.flush();
                    }
                }
            } catch (IOException e) {
                // the client went away
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "n" + peer.myId() + "-client-send");
        writer.setDaemon(true);
        writer.start();
        try {
            while (!closed) {
                DataInputStream r = new DataInputStream(new ByteArrayInputStream(Frames.read(in, 16 * 1024 * 1024)));
                long id = r.readLong();
                byte op = r.readByte();
                if (op == ClientProtocol.STATUS) {
                    answers.offer(answer(id, ClientProtocol.OK,
                            o -> ClientProtocol.writeStatus(o, status(peer.status()))));
                    continue;
                }
                ClientRequest request = switch (op) {
                    case ClientProtocol.GET -> new ClientRequest.Get(Wire.readString(r));
                    case ClientProtocol.PUT -> new ClientRequest.Submit(new Txn.Put(Wire.readString(r),
                            Wire.readString(r)));
                    case ClientProtocol.CAS -> new ClientRequest.Submit(new Txn.Cas(Wire.readString(r),
                            Wire.readString(r), Wire.readString(r)));
                    case ClientProtocol.SYNC_GET -> new ClientRequest.Submit(new Txn.SyncRead(Wire.readString(r)));
                    case ClientProtocol.READ_LOG -> new ClientRequest.ReadLog();
                    default -> throw new IOException("unknown client operation " + op);
                };
                scheduler.execute(() -> peer.submit(request, reply -> answers.offer(encode(id, reply))));
            }
        } finally {
            answers.offer(new byte[0]);
        }
    }

    private static byte[] answer(long id, byte result, Wire.Body body) {
        return Wire.bytes(o -> {
            o.writeLong(id);
            o.writeByte(result);
            body.write(o);
        });
    }

    private static byte[] encode(long id, ClientReply reply) {
        if (reply instanceof ClientReply.Value v) {
            return answer(id, ClientProtocol.OK, o -> Wire.writeString(o, v.value()));
        }
        if (reply instanceof ClientReply.Written w) {
            return answer(id, ClientProtocol.OK, o -> o.writeLong(w.zxid()));
        }
        if (reply instanceof ClientReply.Log l) {
            return answer(id, ClientProtocol.OK, o -> ClientProtocol.writeLog(o,
                    l.entries().stream().map(e -> new LogEntry(e.zxid(), e.txn())).toList()));
        }
        if (reply instanceof ClientReply.Status s) {
            return answer(id, ClientProtocol.OK, o -> ClientProtocol.writeStatus(o, status(s.status())));
        }
        if (reply instanceof ClientReply.Rejected r) {
            return answer(id, ClientProtocol.REJECTED, o -> Wire.writeString(o, r.reason()));
        }
        ClientReply.Indeterminate i = (ClientReply.Indeterminate) reply;
        return answer(id, ClientProtocol.INDETERMINATE, o -> Wire.writeString(o, i.reason()));
    }

    private static NodeStatus status(PeerStatus p) {
        return new NodeStatus(p.myId(), p.state(), p.serving(), p.leader(), p.currentEpoch(), p.acceptedEpoch(),
                p.lastZxid(), p.committedZxid(), p.round(), p.bugPaths());
    }

    @Override
    public void close() {
        closed = true;
        try {
            listener.close();
        } catch (IOException e) {
            // nothing to do
        }
        for (Socket s : sockets) {
            try {
                s.close();
            } catch (IOException e) {
                // nothing to do
            }
        }
    }
}
