package io.zkchaos.fle;

import java.util.Collection;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The bug flags a node runs with; {@link #NONE} is the correct build.
 *
 * @param enabled the bugs switched on (copied, never modified)
 */
public record Bugs(Set<Bug> enabled) {

    public static final Bugs NONE = new Bugs(EnumSet.noneOf(Bug.class));

    public Bugs {
        enabled = enabled.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(enabled));
    }

    public static Bugs of(Bug... bugs) {
        return new Bugs(Set.of(bugs));
    }

    /** Parses comma- or space-separated flag names; blank is {@link #NONE}. */
    public static Bugs parse(String list) {
        EnumSet<Bug> s = EnumSet.noneOf(Bug.class);
        for (String part : list.split("[,\\s]+")) {
            if (!part.isBlank()) {
                s.add(Bug.parse(part));
            }
        }
        return new Bugs(s);
    }

    public static Bugs of(Collection<Bug> bugs) {
        return new Bugs(Set.copyOf(bugs));
    }

    public boolean on(Bug b) {
        return enabled.contains(b);
    }

    public boolean none() {
        return enabled.isEmpty();
    }

    /** The flags as a command line or config file takes them: {@code a,b}; empty for none. */
    public String flags() {
        return enabled.stream().sorted().map(Bug::flag).collect(Collectors.joining(","));
    }

    @Override
    public String toString() {
        return none() ? "none" : flags();
    }
}
