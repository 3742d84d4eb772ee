package io.zkchaos.fle.sim;

import io.zkchaos.fle.election.ElectionTransport;
import io.zkchaos.fle.election.Notification;
import io.zkchaos.fle.zab.MessageKind;
import io.zkchaos.fle.zab.QuorumChannel;
import io.zkchaos.fle.zab.QuorumMessage;
import io.zkchaos.fle.zab.QuorumTransport;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The in-memory network of a simulated group: election notifications and FIFO quorum channels between the servers
 * attached to it, each message delivered after a fixed latency through the {@link Firewall}. A server's crash
 * ({@link #detach}) closes its channels, so their other ends hear of it as a peer hears a TCP reset.
 */
public final class SimNetwork {

    /** One delivered message, for tests that look at the traffic. */
    public record Delivery(long time, long from, long to, MessageKind kind, Object message) {
    }

    private final SimClock clock;
    private final Firewall firewall;
    private final long latencyMs;
    private final Map<Long, Endpoint> endpoints = new HashMap<>();
    private final List<Consumer<Delivery>> observers = new ArrayList<>();

    public SimNetwork(SimClock clock, Firewall firewall, long latencyMs) {
        this.clock = clock;
        this.firewall = firewall;
        this.latencyMs = latencyMs;
    }

    public Firewall firewall() {
        return firewall;
    }

    /** Calls {@code o} for every message delivered from now on, right after its receiver handled it. */
    public void observe(Consumer<Delivery> o) {
        observers.add(o);
    }

    /** Attaches a server incarnation running on {@code lane}; it replaces any earlier one of the same SID. */
    public Endpoint attach(long sid, SimClock.Lane lane) {
        detach(sid);
        Endpoint e = new Endpoint(sid, lane);
        endpoints.put(sid, e);
        return e;
    }

    /** The server crashed: its messages in flight are lost and its channels close. */
    public void detach(long sid) {
        Endpoint e = endpoints.remove(sid);
        if (e == null) {
            return;
        }
        e.alive = false;
        for (Channel c : new ArrayList<>(e.channels)) {
            c.closeLocally();
            if (c.peer != null) {
                c.peer.closedRemotely("connection reset: server " + sid + " died");
            }
        }
        e.channels.clear();
        e.listener = null;
    }

    private void delivered(long from, long to, MessageKind kind, Object m) {
        if (!observers.isEmpty()) {
            Delivery d = new Delivery(clock.now(), from, to, kind, m);
            observers.forEach(o -> o.accept(d));
        }
    }

    /** One server's view of the network: its election transport and its quorum transport. */
    public final class Endpoint implements ElectionTransport, QuorumTransport {
        private final long sid;
        private final SimClock.Lane lane;
        private boolean alive = true;
        private ElectionTransport.Receiver receiver;
        private QuorumTransport.Handler listener;
        private final List<Channel> channels = new ArrayList<>();

        private Endpoint(long sid, SimClock.Lane lane) {
            this.sid = sid;
            this.lane = lane;
        }

        // ---- election

        @Override
        public void start(ElectionTransport.Receiver r) {
            this.receiver = r;
        }

        @Override
        public void send(long toSid, Notification n) {
            if (!alive) {
                return;
            }
            if (toSid == sid) {
                lane.execute(() -> {
                    if (alive && receiver != null) {
                        receiver.onNotification(sid, n);
                    }
                });
                return;
            }
            Firewall.Decision d = firewall.decide(sid, toSid, MessageKind.NOTIFICATION);
            if (d.drop()) {
                return;
            }
            int copies = d.duplicate() ? 2 : 1;
            for (int i = 0; i < copies; i++) {
                clock.at(clock.now() + latencyMs + d.delayMs(), () -> {
                    Endpoint to = endpoints.get(toSid);
                    if (to != null && to.alive && to.receiver != null) {
                        to.receiver.onNotification(sid, n);
                        delivered(sid, toSid, MessageKind.NOTIFICATION, n);
                    }
                });
            }
        }

        /** A queue to a peer drains when the peer is up and the link not cut: so, whether any such peer exists. */
        @Override
        public boolean haveDelivered() {
            for (Map.Entry<Long, Endpoint> e : endpoints.entrySet()) {
                if (e.getKey() != sid && e.getValue().alive && !firewall.cut(sid, e.getKey(), false)) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public void connectAll() {
            // Nothing to reconnect: notifications need no connection here.
        }

        // ---- quorum

        @Override
        public AutoCloseable listen(QuorumTransport.Handler handler) {
            listener = handler;
            return () -> {
                if (listener == handler) {
                    listener = null;
                }
            };
        }

        @Override
        public QuorumChannel connect(long leaderSid, QuorumTransport.Handler handler) {
            Channel mine = new Channel(this, leaderSid, handler);
            channels.add(mine);
            clock.at(clock.now() + latencyMs, () -> {
                if (mine.closed) {
                    return;
                }
                Endpoint leader = endpoints.get(leaderSid);
                if (leader == null || !leader.alive || firewall.cut(sid, leaderSid, true)) {
                    mine.closedRemotely("connection refused by " + leaderSid);
                    return;
                }
                if (leader.listener == null) {
                    // As the TCP transport does: the quorum port is always bound, and a server that does not lead
                    // accepts and closes at once.
                    mine.handler.onOpen(mine);
                    clock.at(clock.now() + latencyMs, () -> mine.closedRemotely(leaderSid + " does not lead"));
                    return;
                }
                Channel theirs = new Channel(leader, sid, leader.listener);
                leader.channels.add(theirs);
                mine.peer = theirs;
                theirs.peer = mine;
                theirs.handler.onOpen(theirs);
                clock.at(clock.now() + latencyMs, () -> {
                    if (!mine.closed) {
                        mine.handler.onOpen(mine);
                    }
                });
            });
            return mine;
        }
    }

    /** One end of a quorum channel. */
    private final class Channel implements QuorumChannel {
        private final Endpoint owner;
        private final long remote;
        private final QuorumTransport.Handler handler;
        private Channel peer;
        private boolean closed;
        private long lastDelivery;

        Channel(Endpoint owner, long remote, QuorumTransport.Handler handler) {
            this.owner = owner;
            this.remote = remote;
            this.handler = handler;
        }

        @Override
        public void send(QuorumMessage m) {
            if (closed || peer == null || !owner.alive) {
                return;
            }
            Firewall.Decision d = firewall.decide(owner.sid, remote, m.kind());
            if (d.drop()) {
                return;
            }
            int copies = d.duplicate() ? 2 : 1;
            for (int i = 0; i < copies; i++) {
                long at = Math.max(clock.now() + latencyMs + d.delayMs(), lastDelivery);
                lastDelivery = at;
                Channel to = peer;
                clock.at(at, () -> {
                    if (!to.closed && to.owner.alive) {
                        to.handler.onMessage(to, m);
                        delivered(owner.sid, remote, m.kind(), m);
                    }
                });
            }
        }

        @Override
        public void close() {
            if (closed) {
                return;
            }
            closeLocally();
            owner.channels.remove(this);
            if (peer != null) {
                Channel to = peer;
                clock.at(Math.max(clock.now() + latencyMs, lastDelivery), () -> to.closedRemotely(
                        "closed by " + owner.sid));
            }
        }

        void closeLocally() {
            closed = true;
        }

        void closedRemotely(String reason) {
            if (closed) {
                return;
            }
            closed = true;
            owner.channels.remove(this);
            if (owner.alive) {
                owner.lane.execute(() -> handler.onClose(this, reason));
            }
        }

        @Override
        public String describe() {
            return "sim channel " + owner.sid + "->" + remote;
        }
    }
}
