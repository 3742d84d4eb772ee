package io.zkchaos.nemesis;

import io.zkchaos.nemesis.Aim.Choice;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every choice a fault makes, in one place: which node, in what order, which protocol moment, how long a delay, and
 * who leads. Each is drawn from the run's seeded {@link Random}, as before, unless the action under way repeats an
 * earlier one's {@link Aim}: then each choice is taken from it, in order, with its nodes found by role or by name
 * ({@link Aim.Targets}). A choice the aim cannot supply (the node it names cannot be acted on now, or the action chose
 * differently from here on) is drawn from the seed, and the action's own aim says what was really chosen.
 *
 * <p>Between {@link #begin} and {@link #end} the choices are recorded, with the role of every node at the first
 * choice of a node; outside an action (a test or a library user calling the fault actions of
 * {@code io.zkchaos.nemesis.faults} directly) they are only drawn. Used from the nemesis's one thread.
 */
public final class Choices {

    private static final Logger LOG = LoggerFactory.getLogger(Choices.class);

    private final Random random;
    private boolean recording;
    private final List<Choice> made = new ArrayList<>();
    private SortedMap<String, String> roles;
    private Aim plan;
    private Aim.Targets targets;
    private int next;

    public Choices(Random random) {
        this.random = java.util.Objects.requireNonNull(random, "random");
    }

    /**
     * Starts recording an action's choices.
     *
     * @param plan    the aim to repeat, or null to draw every choice from the seed
     * @param targets how {@code plan}'s nodes are found (null: {@link Aim.Targets#ROLE})
     */
    public void begin(Aim plan, Aim.Targets targets) {
        recording = true;
        made.clear();
        roles = null;
        this.plan = plan;
        this.targets = targets == null ? Aim.Targets.ROLE : targets;
        next = 0;
    }

    /** Ends the action: what it chose, or null when it chose nothing. */
    public Aim end() {
        Aim aim = new Aim(roles, made);
        recording = false;
        made.clear();
        roles = null;
        plan = null;
        return aim.isEmpty() ? null : aim;
    }

    /**
     * Who leads now ({@code what}: {@code leader} for the nodes, or another name for another kind of leader, such as
     * a client process's), as {@code ask} says; a repeated aim re-asks it when found by role, or names the recorded
     * one when found by name.
     */
    public Optional<String> leader(String what, NodeControl cluster, Supplier<Optional<String>> ask) {
        boolean nodes = what.equals(Choice.LEADER);
        Optional<String> leader = null;
        if (nodes && recording && roles == null) {
            leader = snapshot(cluster);
        }
        Choice planned = planned(what);
        if (planned != null && targets == Aim.Targets.NAME) {
            leader = planned.picked().stream().findFirst();
        } else if (leader == null) {
            leader = ask.get();
        }
        record(new Choice(what, leader.map(List::of).orElse(List.of()), null));
        return leader;
    }

    /** One of {@code candidates} (nodes). */
    public String node(NodeControl cluster, List<String> candidates) {
        noteRoles(cluster);
        Choice planned = planned(Choice.NODE);
        String pick = null;
        if (planned != null && !planned.picked().isEmpty()) {
            String named = resolve(planned.picked().get(0));
            if (candidates.contains(named)) {
                pick = named;
            } else {
                LOG.info("the aim names {}, which cannot be acted on now (candidates {}): drawn from the seed",
                        named, candidates);
            }
        }
        if (pick == null) {
            pick = candidates.get(random.nextInt(candidates.size()));
        }
        record(new Choice(Choice.NODE, List.of(pick), null));
        return pick;
    }

    /** {@code nodes} in an order: the aim's (its nodes that are among them, then the others drawn), or drawn. */
    public List<String> order(NodeControl cluster, List<String> nodes) {
        noteRoles(cluster);
        Choice planned = planned(Choice.ORDER);
        List<String> order = new ArrayList<>();
        List<String> rest = new ArrayList<>(nodes);
        if (planned != null) {
            for (String n : planned.picked()) {
                String named = resolve(n);
                if (rest.remove(named)) {
                    order.add(named);
                }
            }
        }
        Collections.shuffle(rest, random);
        order.addAll(rest);
        record(new Choice(Choice.ORDER, order, null));
        return order;
    }

    /** One of {@code options} that are not nodes (a protocol moment, a client process), recorded by its name. */
    public <T> T one(String what, List<T> options, Function<T, String> name) {
        Choice planned = planned(what);
        T pick = null;
        if (planned != null && !planned.picked().isEmpty()) {
            pick = options.stream().filter(o -> name.apply(o).equals(planned.picked().get(0))).findFirst()
                    .orElse(null);
        }
        if (pick == null) {
            pick = options.get(random.nextInt(options.size()));
        }
        record(new Choice(what, List.of(name.apply(pick)), null));
        return pick;
    }

    /** A number in {@code [0, max]}. */
    public long upTo(String what, long max) {
        return number(what, max, () -> random.nextLong(max + 1));
    }

    /** A number in {@code [0, bound)}. */
    public int below(String what, int bound) {
        return (int) number(what, bound - 1L, () -> (long) random.nextInt(bound));
    }

    /** A coin. */
    public boolean coin(String what) {
        return number(what, 1, () -> random.nextBoolean() ? 1L : 0L) == 1;
    }

    /** The aim's number if it is within {@code [0, max]}, else {@code draw}'s. */
    private long number(String what, long max, Supplier<Long> draw) {
        Choice planned = planned(what);
        long n = planned != null && planned.number() != null && planned.number() >= 0 && planned.number() <= max
                ? planned.number() : draw.get();
        record(new Choice(what, List.of(), n));
        return n;
    }

    /** The next planned choice if it is of {@code what}; once the action chooses otherwise, the rest is dropped. */
    private Choice planned(String what) {
        if (!recording || plan == null || next >= plan.choices().size()) {
            return null;
        }
        Choice c = plan.choices().get(next);
        if (!c.what().equals(what)) {
            LOG.info("the aim's choice #{} is a {}, the fault asks for a {}: the rest is drawn from the seed",
                    next + 1, c.what(), what);
            next = plan.choices().size();
            return null;
        }
        next++;
        return c;
    }

    /** A node the aim names, as found now: by name, or by role (the leader then and the leader now trade places). */
    private String resolve(String node) {
        if (targets == Aim.Targets.NAME || roles == null) {
            return node;
        }
        String then = plan.leader();
        String now = new Aim(roles, List.of()).leader();
        if (then == null || now == null) {
            return node;
        }
        return node.equals(then) ? now : node.equals(now) ? then : node;
    }

    private void noteRoles(NodeControl cluster) {
        if (recording && roles == null) {
            snapshot(cluster);
        }
    }

    /** Takes every node's role now (one leader query); returns the leader. */
    private Optional<String> snapshot(NodeControl cluster) {
        Optional<String> leader = cluster.leader();
        SortedMap<String, String> r = new TreeMap<>();
        for (String n : cluster.nodes()) {
            NodeState s = cluster.state(n);
            r.put(n, leader.filter(n::equals).isPresent() ? Aim.LEADER : s == NodeState.DOWN ? Aim.DOWN
                    : s == NodeState.PAUSED ? Aim.PAUSED : Aim.FOLLOWER);
        }
        roles = r;
        return leader;
    }

    private void record(Choice c) {
        if (recording) {
            made.add(c);
        }
    }
}
