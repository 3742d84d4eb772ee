package io.zkchaos.workloads.fle;

import io.zkchaos.fle.client.FleClient;
import io.zkchaos.fle.client.FleException;
import io.zkchaos.workloads.Target;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The fle nodes of a {@link Target}: each server's name and client address ({@code host:port}, a fault proxy's
 * client link under the harness). An fle client talks to one node; a process is bound to the node
 * {@link #forProcess} names for its whole life, so that its reads are those of one server (the read model judges
 * plain reads per process), and a retired process's replacement — a new process number — lands on the next node.
 */
public final class FleNodes {

    /** One node: its name ({@code n1}) and where its clients connect. */
    public record Node(String name, InetSocketAddress address) {
    }

    private FleNodes() {
    }

    /** Every node of the target, in its order. */
    public static List<Node> of(Target target) {
        List<Node> nodes = new ArrayList<>();
        for (Map.Entry<String, String> e : target.servers().entrySet()) {
            nodes.add(new Node(e.getKey(), address(e.getValue())));
        }
        return nodes;
    }

    /** The node of {@code process}: the nodes in turn by process number. */
    public static Node forProcess(Target target, int process) {
        List<Node> nodes = of(target);
        return nodes.get(Math.floorMod(process, nodes.size()));
    }

    /**
     * Waits until {@code node} says it serves (its status is answered in any state), for at most {@code bound}: the
     * final reads ask each node once it serves, so that a node still electing after the heal (or stepping down a
     * moment on a loaded machine) is read when it can answer rather than not at all. Returns whether it serves.
     */
    public static boolean awaitServing(Node node, Duration bound) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        while (true) {
            try (FleClient c = new FleClient(node.address(), Duration.ofSeconds(1))) {
                if (c.status().serving()) {
                    return true;
                }
            } catch (FleException e) {
                // down or unreachable for now
            }
            if (System.nanoTime() > deadline) {
                return false;
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
    }

    /**
     * Parses {@code host:port}.
     *
     * @throws IllegalArgumentException naming the text when it is not {@code host:port}
     */
    public static InetSocketAddress address(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        if (colon <= 0 || colon == hostPort.length() - 1) {
            throw new IllegalArgumentException("not host:port: '" + hostPort + "'");
        }
        try {
            return new InetSocketAddress(hostPort.substring(0, colon),
                    Integer.parseInt(hostPort.substring(colon + 1)));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not host:port: '" + hostPort + "'", e);
        }
    }
}
