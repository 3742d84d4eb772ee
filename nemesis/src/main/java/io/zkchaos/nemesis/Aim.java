package io.zkchaos.nemesis;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Where a fault action aimed: every choice it made (which node, in what order, which protocol moment, how long a
 * delay), in the order it made them, and the role of every node when it first chose one. A fault action records its
 * aim ({@link FaultRecord#aim()}); an operation that carries one ({@link FaultOp#aimed}) makes the same choices again
 * instead of drawing them from the seed ({@link Choices}).
 *
 * @param roles   every node's role when the action first chose a node ({@code leader}, {@code follower},
 *                {@code paused}, {@code down}); empty when it chose none
 * @param choices what it chose, in order
 */
public record Aim(SortedMap<String, String> roles, List<Choice> choices) {

    /** The role names of {@link #roles}. */
    public static final String LEADER = "leader";
    public static final String FOLLOWER = "follower";
    public static final String PAUSED = "paused";
    public static final String DOWN = "down";

    public Aim {
        roles = roles == null ? new TreeMap<>() : java.util.Collections.unmodifiableSortedMap(new TreeMap<>(roles));
        choices = choices == null ? List.of() : List.copyOf(choices);
    }

    /** The node that led when the action first chose a node, or null. */
    public String leader() {
        return roles.entrySet().stream().filter(e -> LEADER.equals(e.getValue())).map(Map.Entry::getKey).findFirst()
                .orElse(null);
    }

    /** Whether nothing was chosen. */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public boolean isEmpty() {
        return roles.isEmpty() && choices.isEmpty();
    }

    /**
     * One choice.
     *
     * @param what   what was chosen: {@code leader} (who leads: a role, not a draw), {@code node} (one node of those
     *               it could act on), {@code order} (an order of nodes), or any other name for a choice that is not a
     *               node ({@code moment}, {@code client}, {@code delay-ms} ...)
     * @param picked the names picked (one node, or every node in order; a moment's or client's name); empty for a
     *               number, or for a leader query that found none
     * @param number a number drawn (a delay in ms, a count, a coin as 0 or 1), or null
     */
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    public record Choice(String what, List<String> picked, Long number) {

        /** The kinds of choice whose {@link #picked} are node names (re-resolved by role on a replay). */
        public static final String LEADER = "leader";
        public static final String NODE = "node";
        public static final String ORDER = "order";

        public Choice {
            Objects.requireNonNull(what, "what");
            picked = picked == null ? List.of() : List.copyOf(picked);
        }

        /** Whether {@link #picked} names nodes. */
        public boolean ofNodes() {
            return what.equals(LEADER) || what.equals(NODE) || what.equals(ORDER);
        }
    }

    /**
     * How a replay finds the nodes an aim names: by their role then (the node that led then is the one that leads
     * now, as are the others by what they were), or by their names.
     */
    public enum Targets {
        /**
         * The default: a fault that hit the leader hits the leader again, whichever node leads now (the node that
         * led then and the node that leads now trade places; every other name is kept).
         */
        ROLE,
        /** The same node names, whatever they do now. */
        NAME;

        /** As files and the command line spell it. */
        @com.fasterxml.jackson.annotation.JsonValue
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** @throws IllegalArgumentException naming the value and the known ones */
        @com.fasterxml.jackson.annotation.JsonCreator
        public static Targets parse(String s) {
            for (Targets t : values()) {
                if (t.wireName().equals(s)) {
                    return t;
                }
            }
            throw new IllegalArgumentException("targets must be role or name, got '" + s + "'");
        }
    }
}
