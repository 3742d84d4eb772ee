package io.zkchaos.fle.sim;

import io.zkchaos.fle.zab.MessageKind;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * Rules on the simulated network's messages, by sender, receiver and message kind: drop, delay or duplicate. A rule
 * with {@link #ANY} matches every server on that side, a {@code null} kind every kind; a rule that drops every kind
 * between two servers also refuses their new quorum connections (a cut link). Rules apply to messages sent after they
 * are added.
 */
public final class Firewall {

    /** Matches every server. */
    public static final long ANY = 0;

    public enum Action { DROP, DELAY, DUPLICATE }

    /** One rule; keep it to {@link #remove} it. */
    public record Rule(long from, long to, MessageKind kind, Action action, long delayMs) {
        boolean matches(long f, long t, MessageKind k) {
            return (from == ANY || from == f) && (to == ANY || to == t) && (kind == null || kind == k);
        }
    }

    /** Rules that apply to a number of messages only, and how many are left. */
    private final java.util.Map<Rule, Integer> remaining = new java.util.IdentityHashMap<>();

    /** What happens to one message. */
    public record Decision(boolean drop, long delayMs, boolean duplicate) {
    }

    private final List<Rule> rules = new ArrayList<>();

    public Rule add(Rule r) {
        rules.add(r);
        return r;
    }

    public void remove(Rule r) {
        rules.remove(r);
        remaining.remove(r);
    }

    /** Drops messages of {@code kind} ({@code null}: all) from {@code from} to {@code to}. */
    public Rule drop(long from, long to, MessageKind kind) {
        return add(new Rule(from, to, kind, Action.DROP, 0));
    }

    /** Drops the next {@code count} messages of {@code kind} from {@code from} to {@code to}, then no more. */
    public Rule dropNext(long from, long to, MessageKind kind, int count) {
        Rule r = new Rule(from, to, kind, Action.DROP, 0);
        remaining.put(r, count);
        return add(r);
    }

    public Rule delay(long from, long to, MessageKind kind, long ms) {
        return add(new Rule(from, to, kind, Action.DELAY, ms));
    }

    public Rule duplicate(long from, long to, MessageKind kind) {
        return add(new Rule(from, to, kind, Action.DUPLICATE, 0));
    }

    /** Cuts every message both ways between {@code a} and {@code b}. */
    public List<Rule> cut(long a, long b) {
        return List.of(drop(a, b, null), drop(b, a, null));
    }

    /** Cuts {@code sid} from each of {@code others}, both ways. */
    public List<Rule> isolate(long sid, Collection<Long> others) {
        List<Rule> added = new ArrayList<>();
        for (long o : others) {
            if (o != sid) {
                added.addAll(cut(sid, o));
            }
        }
        return added;
    }

    /** Cuts every pair of servers that are in different groups. */
    public List<Rule> partition(List<Set<Long>> groups) {
        List<Rule> added = new ArrayList<>();
        for (int i = 0; i < groups.size(); i++) {
            for (int j = i + 1; j < groups.size(); j++) {
                for (long a : groups.get(i)) {
                    for (long b : groups.get(j)) {
                        added.addAll(cut(a, b));
                    }
                }
            }
        }
        return added;
    }

    public void removeAll(Collection<Rule> rs) {
        rules.removeAll(rs);
        rs.forEach(remaining::remove);
    }

    /** Removes every rule. */
    public void heal() {
        rules.clear();
        remaining.clear();
    }

    public Decision decide(long from, long to, MessageKind kind) {
        boolean drop = false;
        boolean dup = false;
        long delay = 0;
        for (Rule r : new ArrayList<>(rules)) {
            if (r.matches(from, to, kind)) {
                Integer left = remaining.get(r);
                if (left != null) {
                    if (left <= 1) {
                        remaining.remove(r);
                        rules.remove(r);
                    } else {
                        remaining.put(r, left - 1);
                    }
                }
                switch (r.action) {
                    case DROP -> drop = true;
                    case DELAY -> delay += r.delayMs;
                    case DUPLICATE -> dup = true;
                }
            }
        }
        return new Decision(drop, delay, dup);
    }

    /** Whether every message from {@code from} to {@code to} is dropped. */
    public boolean cut(long from, long to, boolean eitherWay) {
        for (Rule r : rules) {
            if (r.action == Action.DROP && r.kind == null
                    && (r.matches(from, to, null) || (eitherWay && r.matches(to, from, null)))) {
                return true;
            }
        }
        return false;
    }
}
