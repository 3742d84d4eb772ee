package io.zkchaos.fle.node;

import io.zkchaos.fle.net.ClientServer;
import io.zkchaos.fle.net.ElectionConnectionManager;
import io.zkchaos.fle.net.TcpQuorumTransport;
import io.zkchaos.fle.peer.PeerExit;
import io.zkchaos.fle.peer.PeerListener;
import io.zkchaos.fle.peer.PeerSettings;
import io.zkchaos.fle.peer.PeerStatus;
import io.zkchaos.fle.peer.QuorumPeer;
import io.zkchaos.fle.sched.ExecutorScheduler;
import io.zkchaos.fle.storage.FileStorage;
import io.zkchaos.fle.storage.Storage;
import io.zkchaos.fle.storage.StorageException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * One running node: its three listening sockets (bound first, so that an address in use is reported before anything
 * else starts), its data dir, its scheduler, transports, peer and client port.
 */
public final class Node implements AutoCloseable {

    /** How long a connection attempt to a peer may take. */
    static final int CONNECT_TIMEOUT_MS = 2_000;

    private final NodeConfig config;
    private final List<AutoCloseable> resources;
    private final ExecutorScheduler scheduler;
    private final QuorumPeer peer;

    private Node(NodeConfig config, List<AutoCloseable> resources, ExecutorScheduler scheduler, QuorumPeer peer) {
        this.config = config;
        this.resources = resources;
        this.scheduler = scheduler;
        this.peer = peer;
    }

    /**
     * Starts a node.
     *
     * @param onFatal called (on the node's thread) when the node cannot go on: a storage failure or an internal
     *                error; the process should stop at once
     * @param exit    how the peer ends the process when it decides to (a bug flag's code path): at once, never
     *                returning
     */
    public static Node start(NodeConfig config, Consumer<Throwable> onFatal, PeerExit exit)
            throws NodeStartException {
        List<AutoCloseable> opened = new ArrayList<>();
        try {
            NodeConfig.Server self = config.self();
            ServerSocket election = bind("election", self.electionAddress());
            opened.add(election);
            ServerSocket quorum = bind("quorum", self.quorumAddress());
            opened.add(quorum);
            ServerSocket client = bind("client", config.clientAddress());
            opened.add(client);

            FileStorage storage;
            Storage.Persisted persisted;
            try {
                storage = FileStorage.open(config.dataDir(), config.myId());
                opened.add(storage);
                persisted = storage.load();
            } catch (StorageException e) {
                throw new NodeStartException(NodeStartException.DATA_DIR, e.getMessage(), e);
            }

            ExecutorScheduler scheduler = new ExecutorScheduler("n" + config.myId() + "-main", onFatal);
            opened.add(scheduler);
            Set<Long> peers = config.servers().keySet().stream().filter(id -> id != config.myId())
                    .collect(Collectors.toSet());
            ElectionConnectionManager electionTransport = new ElectionConnectionManager(config.myId(), election,
                    id -> config.servers().get(id).electionAddress(), peers, scheduler, CONNECT_TIMEOUT_MS);
            opened.add(electionTransport);
            TcpQuorumTransport quorumTransport = new TcpQuorumTransport(config.myId(), quorum,
                    id -> config.servers().get(id).quorumAddress(), scheduler, CONNECT_TIMEOUT_MS);
            opened.add(quorumTransport);
            PeerSettings settings = PeerSettings.of(config.myId(), config.servers().keySet(), config.timing(),
                    config.bugs());
            QuorumPeer peer = new QuorumPeer(settings, scheduler, electionTransport, quorumTransport, storage,
                    System.currentTimeMillis(), PeerListener.NONE, exit);
            ClientServer clients = new ClientServer(client, peer, scheduler);
            opened.add(clients);
            scheduler.execute(() -> peer.start(persisted));
            clients.start();
            // Close in reverse order of opening: clients and transports before the scheduler and the storage.
            List<AutoCloseable> resources = new ArrayList<>(opened);
            java.util.Collections.reverse(resources);
            return new Node(config, resources, scheduler, peer);
        } catch (NodeStartException | RuntimeException e) {
            java.util.Collections.reverse(opened);
            closeAll(opened);
            throw e;
        }
    }

    private static ServerSocket bind(String what, InetSocketAddress addr) throws NodeStartException {
        if (addr.isUnresolved()) {
            throw new NodeStartException(NodeStartException.BIND, "cannot bind the " + what + " address "
                    + addr.getHostString() + ":" + addr.getPort() + ": unknown host", null);
        }
        ServerSocket s = null;
        try {
            s = new ServerSocket();
            s.setReuseAddress(true);
            s.bind(addr, 64);
            return s;
        } catch (IOException e) {
            if (s != null) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // nothing to do
                }
            }
            throw new NodeStartException(NodeStartException.BIND, "cannot bind the " + what + " address "
                    + addr.getHostString() + ":" + addr.getPort() + ": " + e.getMessage(), e);
        }
    }

    public NodeConfig config() {
        return config;
    }

    /** The node's state as last published (never waits). */
    public PeerStatus status() {
        return peer.status();
    }

    /** Stops the peer on its own thread (so that what is held is written), then closes everything. */
    @Override
    public void close() {
        CountDownLatch stopped = new CountDownLatch(1);
        scheduler.execute(() -> {
            try {
                peer.stop();
            } finally {
                stopped.countDown();
            }
        });
        try {
            stopped.await(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closeAll(resources);
    }

    private static void closeAll(List<AutoCloseable> rs) {
        for (AutoCloseable r : rs) {
            try {
                r.close();
            } catch (Exception e) {
                // closing on the way out: nothing more to do
            }
        }
    }
}
