package io.zkchaos.nemesis.faults;

import io.zkchaos.nemesis.Aim;
import io.zkchaos.nemesis.ClientControl;
import io.zkchaos.nemesis.Choices;
import io.zkchaos.nemesis.FaultRecord;
import io.zkchaos.nemesis.Felt;
import io.zkchaos.nemesis.NemesisTarget;
import io.zkchaos.nemesis.NodeControl;
import io.zkchaos.nemesis.NodeState;
import io.zkchaos.nemesis.ServingWait;
import io.zkchaos.nemesis.net.LinkNetwork;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * What every family of fault actions shares: the target, the name of the fault being run (the name its records
 * carry), the choices (every one through the target's {@link Choices}: drawn from its seeded source, or repeated from
 * an earlier action's {@link Aim}), the records of acting on each of some nodes, and the process measure of what was
 * felt. Not thread-safe: one nemesis drives one cluster.
 */
final class Acting {

    /** How long an undoing action waits before it tries a node that failed once again. */
    private static final Duration RETRY_AFTER = Duration.ofSeconds(1);

    final NemesisTarget target;
    final NodeControl cluster;
    final LinkNetwork links;
    final Choices choices;
    final ClientControl clients;
    /** The fault being run: the name its start's records carry. */
    final String fault;

    Acting(NemesisTarget target, String fault) {
        this.target = Objects.requireNonNull(target, "target");
        this.cluster = target.nodes();
        this.links = target.links();
        this.choices = target.choices();
        this.clients = target.clients();
        this.fault = Objects.requireNonNull(fault, "fault");
    }

    // ---- what the target can do beyond NodeControl ----

    /**
     * The target's nodes as {@code control}, an optional interface they implement or not.
     *
     * @param cannot what the fault would do, after "... cannot": {@code move n1's clock}
     * @throws IllegalStateException naming the system and what it cannot do, when they do not implement it: the
     *                               fault could not act
     */
    <T> T control(Class<T> control, String cannot) {
        if (control.isInstance(cluster)) {
            return control.cast(cluster);
        }
        throw new IllegalStateException(cluster.getClass().getSimpleName() + " cannot " + cannot);
    }

    /** The target's nodes as {@code control}, when they implement it. */
    <T> Optional<T> optional(Class<T> control) {
        return control.isInstance(cluster) ? Optional.of(control.cast(cluster)) : Optional.empty();
    }

    /** Does {@code act}; a system that implements the control but cannot now ({@link UnsupportedOperationException}) could not act. */
    static <T> T refusedAsState(java.util.function.Supplier<T> act) {
        try {
            return act.get();
        } catch (UnsupportedOperationException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    // ---- choices ----

    /** Who leads now (a choice: a replay by role asks again, by name names the same node). */
    Optional<String> leader() {
        return choices.leader(Aim.Choice.LEADER, cluster, cluster::leader);
    }

    String requireLeader() {
        return leader().orElseThrow(() -> new IllegalStateException(
                "no node leads now (nodes " + cluster.nodes() + "): cannot aim a fault at the leader"));
    }

    /** The running nodes (a fresh list the caller may change). */
    List<String> running() {
        List<String> r = new ArrayList<>(cluster.nodes().stream()
                .filter(n -> cluster.state(n) == NodeState.RUNNING).toList());
        if (r.isEmpty()) {
            throw new IllegalStateException("no node is running");
        }
        return r;
    }

    /** The nodes in {@code state}, in name order. */
    List<String> in(NodeState state) {
        return cluster.nodes().stream().filter(n -> cluster.state(n) == state).toList();
    }

    /** One of {@code nodes}, drawn (or as the action's aim says). */
    String pick(List<String> nodes) {
        return choices.node(cluster, nodes);
    }

    /** Every node, in a drawn order (or the action's aim's). */
    List<String> shuffled() {
        return choices.order(cluster, cluster.nodes());
    }

    /** A seeded delay of 0..max ms. */
    long delayMillis(Duration max) {
        return max.isZero() || max.isNegative() ? 0 : choices.upTo("delay-ms", max.toMillis());
    }

    /** A seeded duration in {@code [least, most]} (ms steps), forward or back with equal odds. */
    Duration signed(Duration least, Duration most) {
        long ms = least.toMillis() + choices.upTo("clock-offset-ms", most.toMillis() - least.toMillis());
        return Duration.ofMillis(choices.coin("clock-forward") ? ms : -ms);
    }

    /** Sleeps; an interrupt (the run is closing) cuts it short and is kept for the caller to see. */
    static void sleep(long ms) {
        if (ms <= 0) {
            return;
        }
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * " (serves)" once the node serves, or why it did not within the bound.
     *
     * @throws IllegalStateException when the system cannot tell whether a node serves: the fault could not act
     */
    String serving(String node, Duration bound) {
        ServingWait wait = control(ServingWait.class, "tell whether " + node + " serves");
        try {
            wait.awaitServing(node, bound);
            return " (serves)";
        } catch (IllegalStateException e) {
            return " (" + e.getMessage() + ")";
        }
    }

    // ---- records ----

    /** A record of this fault: what it did to {@code nodes}, in words, without groups or grudge. */
    FaultRecord record(String description, List<String> nodes) {
        return new FaultRecord(fault, description, nodes, List.of(), new TreeMap<>());
    }

    /** Does {@code action} to each of {@code nodes}, in order, and records it as this fault. */
    FaultRecord onEach(String verb, List<String> nodes, Consumer<String> action) {
        nodes.forEach(action);
        return FaultRecord.process(fault, verb, nodes);
    }

    /** As {@link #onEach}, then each node's process as the system shows it, against {@code expected}. */
    FaultRecord onEachSeen(String verb, List<String> nodes, Consumer<String> action, NodeState expected) {
        return onEach(verb, nodes, action).withFelt(seenEach(nodes, expected));
    }

    /**
     * As {@link #onEach}, recorded as {@code undo} (an undoing action's own name, {@code restart}, {@code resume}),
     * but one node's failure does not spare the others: it is tried on every node, a node that fails once is tried
     * again a second later (an engine or host busy for a moment), and what still failed is thrown afterwards, naming
     * each node.
     */
    static FaultRecord onEachIndependently(String undo, String verb, List<String> nodes, Consumer<String> action) {
        List<String> failed = new ArrayList<>();
        for (String node : nodes) {
            try {
                action.accept(node);
            } catch (RuntimeException first) {
                try {
                    Thread.sleep(RETRY_AFTER.toMillis());
                    action.accept(node);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    failed.add(verb + " " + node + ": interrupted after " + message(first));
                } catch (RuntimeException e) {
                    failed.add(verb + " " + node + ": " + message(e));
                }
            }
        }
        if (!failed.isEmpty()) {
            throw new IllegalStateException(String.join("; ", failed));
        }
        return FaultRecord.process(undo, verb, nodes);
    }

    private static String message(RuntimeException e) {
        return e.getMessage() == null ? e.toString() : e.getMessage();
    }

    // ---- what was felt ----

    List<Felt> seenEach(List<String> nodes, NodeState expected) {
        List<Felt> felt = new ArrayList<>();
        nodes.forEach(n -> seen(n, expected).ifPresent(felt::add));
        return felt;
    }

    /**
     * How long the system may take to show a signal's effect: SIGSTOP is delivered to every thread of the process
     * after {@code kill} returns, and on a loaded machine {@code /proc} showed a paused server still running.
     */
    static final Duration SEEN_BOUND = Duration.ofSeconds(2);

    /**
     * The node's process as the system shows it, waiting up to {@link #SEEN_BOUND} for it to be {@code expected}:
     * felt when it is; empty when not measured.
     */
    Optional<Felt> seen(String node, NodeState expected) {
        long deadline = System.nanoTime() + SEEN_BOUND.toNanos();
        Optional<NodeState> seen = cluster.processSeen(node);
        while (seen.isPresent() && seen.get() != expected && System.nanoTime() < deadline) {
            sleep(20);
            seen = cluster.processSeen(node);
        }
        return seen.map(s -> Felt.of(node, s == expected, "process seen " + switch (s) {
            case DOWN -> "gone";
            case PAUSED -> "stopped";
            case RUNNING -> "running";
        }));
    }
}
