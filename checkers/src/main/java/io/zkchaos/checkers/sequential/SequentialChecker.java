package io.zkchaos.checkers.sequential;

import io.zkchaos.checkers.Capped;
import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Checker;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.Values;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Operation;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The promises of sequential znodes, for {@code sequential} histories.
 *
 * <h2>History contract</h2>
 * (see {@code docs/history-conventions.md}) {@code create} on a parent (the key, {@code p0} ...) with invoke value
 * {@code {"value": v, "mode": "persistent" | "ephemeral"}}, {@code v} unique in the run; ok value adds
 * {@code "name"} (the child's name as ZooKeeper returned it) and {@code "seq"} (its sequence number). A child is named
 * {@code v<value>-} followed by the ten digits ZooKeeper appends, so a read names the create it saw. {@code read} ok
 * values are {@code {"children": {parent: [names]}}}, synced first; a read that names a server ({@code "node"}) is a
 * final read of that server, its last one counting.
 *
 * <h2>Verdict</h2>
 * Invalid when: two acknowledged creates under one parent got the same name or sequence number, or a read holds two
 * children with one sequence number ({@code unique-name}); a create invoked after another's acknowledgement got a
 * lower sequence number under the same parent ({@code order}); an acknowledged name does not carry its own value and
 * sequence number, or a read holds an acknowledged value under another name ({@code name-mismatch}); a read holds one
 * value under two names ({@code duplicate}: an indeterminate create is present once or absent, never twice); a read
 * holds a child no create made or whose create failed ({@code phantom}); a synced read misses a persistent child
 * acknowledged before it began, or its own session's ephemeral child ({@code lost}), and a server's final read misses
 * an acknowledged persistent child ({@code lost}). Ephemeral children are not required in final reads (their sessions
 * have ended; {@code final-state} judges what outlives a session). Unknown when nothing was acknowledged or no server's
 * final read completed.
 */
public final class SequentialChecker implements Checker {

    public static final String NAME = "sequential-znodes";

    /** A child's name: {@code v<value>-} and ZooKeeper's ten-digit sequence number. */
    private static final Pattern CHILD = Pattern.compile("v(\\d+)-(\\d{10})");

    @Override
    public String name() {
        return NAME;
    }

    /** A create, with what it asked for and (when acknowledged) what it got. */
    private record Create(Operation op, String parent, long value, boolean ephemeral, String name, long seq) {
        String who() {
            return "process " + op.process() + "'s create of " + value + " under " + parent;
        }
    }

    /** A read of some parents' children; {@code node} names the server of a final read, else null. */
    private record Read(Operation op, String node, Map<String, List<String>> children) {
    }

    @Override
    public CheckResult check(History history) {
        Map<String, List<Create>> creates = new LinkedHashMap<>();
        List<Read> reads = new ArrayList<>();
        Map<String, Read> finals = new LinkedHashMap<>();
        Set<String> parents = new LinkedHashSet<>();
        for (Operation op : history.operations()) {
            if (op.f().equals("create")) {
                Create c = create(op);
                parents.add(c.parent());
                creates.computeIfAbsent(c.parent(), p -> new ArrayList<>()).add(c);
            } else if (op.f().equals("read") && op.isOk()) {
                Read r = read(op);
                parents.addAll(r.children().keySet());
                reads.add(r);
                if (r.node() != null) {
                    finals.merge(r.node(), r, (a, b) -> b.op().completeIndex() > a.op().completeIndex() ? b : a);
                }
            }
        }
        Findings found = new Findings();
        int acked = 0;
        int ephemeral = 0;
        int indeterminate = 0;
        int failed = 0;
        Map<String, Map<Long, Create>> byValue = new HashMap<>();
        for (Map.Entry<String, List<Create>> e : creates.entrySet()) {
            Map<Long, Create> values = new HashMap<>();
            for (Create c : e.getValue()) {
                Create earlier = values.get(c.value());
                if (earlier == null || c.op().isOk() || earlier.op().isFail()) {
                    values.put(c.value(), c); // the acknowledged one wins, then the one that may have happened
                }
                if (c.op().isOk()) {
                    acked++;
                    ephemeral += c.ephemeral() ? 1 : 0;
                } else if (c.op().isInfo()) {
                    indeterminate++;
                } else {
                    failed++;
                }
            }
            byValue.put(e.getKey(), values);
            List<Create> ok = e.getValue().stream().filter(c -> c.op().isOk()).toList();
            names(e.getKey(), ok, found);
            order(e.getKey(), ok, found);
        }
        Set<String> presentIndeterminate = new java.util.HashSet<>();
        for (Read r : reads) {
            readOne(r, byValue, creates, presentIndeterminate, found);
        }
        for (Read r : finals.values()) {
            finalRead(r, creates, found);
        }
        SequentialReport report = new SequentialReport(List.copyOf(parents), acked, ephemeral, indeterminate,
                presentIndeterminate.size(), failed, reads.size(), List.copyOf(finals.keySet()), found.all.count(),
                found.all.byKind(), found.all.kept());
        Validity validity = found.all.count() > 0 ? Validity.INVALID
                : acked == 0 || finals.isEmpty() ? Validity.UNKNOWN : Validity.VALID;
        return CheckResult.of(NAME, validity, summary(validity, report), report);
    }

    /** Acknowledged names carry their own value and sequence number, and no two under one parent are alike. */
    private static void names(String parent, List<Create> ok, Findings found) {
        Map<String, Create> byName = new HashMap<>();
        Map<Long, Create> bySeq = new HashMap<>();
        for (Create c : ok) {
            Matcher m = CHILD.matcher(c.name());
            if (!m.matches() || Long.parseLong(m.group(1)) != c.value() || Long.parseLong(m.group(2)) != c.seq()) {
                found.add("name-mismatch", parent, c.who() + " was acknowledged as '" + c.name() + "' (sequence "
                        + c.seq() + "), which is not v" + c.value() + "- and that sequence number in ten digits "
                        + "(index " + c.op().completeIndex() + ")", c.op().completeIndex());
            }
            Create sameName = byName.putIfAbsent(c.name(), c);
            if (sameName != null) {
                found.add("unique-name", parent, c.who() + " and " + sameName.who() + " were both acknowledged as '"
                        + c.name() + "' (indices " + sameName.op().completeIndex() + ", " + c.op().completeIndex()
                        + ")", sameName.op().completeIndex(), c.op().completeIndex());
            }
            Create sameSeq = bySeq.putIfAbsent(c.seq(), c);
            if (sameSeq != null && sameName == null) {
                found.add("unique-name", parent, c.who() + " and " + sameSeq.who() + " both got sequence number "
                        + c.seq() + " ('" + sameSeq.name() + "', '" + c.name() + "')", sameSeq.op().completeIndex(),
                        c.op().completeIndex());
            }
        }
    }

    /**
     * Sequence numbers follow real time: a create invoked after another was acknowledged has a higher number. One
     * sweep in history order, keeping the highest number acknowledged so far.
     */
    private static void order(String parent, List<Create> ok, Findings found) {
        List<Create> byAck = ok.stream().sorted(Comparator.comparingLong(c -> c.op().completeIndex())).toList();
        List<Create> byInvoke = ok.stream().sorted(Comparator.comparingLong(c -> c.op().invokeIndex())).toList();
        Create highest = null;
        int next = 0;
        for (Create c : byInvoke) {
            while (next < byAck.size() && byAck.get(next).op().completeIndex() < c.op().invokeIndex()) {
                Create a = byAck.get(next++);
                if (highest == null || a.seq() > highest.seq()) {
                    highest = a;
                }
            }
            if (highest != null && highest.seq() > c.seq()) {
                found.add("order", parent, c.who() + " (invoked at index " + c.op().invokeIndex() + ") got sequence "
                        + "number " + c.seq() + ", lower than " + highest.seq() + " of " + highest.who()
                        + ", acknowledged before it began (index " + highest.op().completeIndex() + ")",
                        highest.op().completeIndex(), c.op().invokeIndex());
            }
        }
    }

    /** What one read shows: each child made by a create, under the name it was acknowledged with, at most once. */
    private static void readOne(Read r, Map<String, Map<Long, Create>> byValue, Map<String, List<Create>> creates,
                                Set<String> presentIndeterminate, Findings found) {
        String where = r.node() != null ? "the final read of " + r.node() : "process " + r.op().process()
                + "'s read";
        long at = r.op().invokeIndex();
        for (Map.Entry<String, List<String>> e : r.children().entrySet()) {
            String parent = e.getKey();
            Map<Long, Create> values = byValue.getOrDefault(parent, Map.of());
            Map<Long, String> seqs = new HashMap<>();
            Map<Long, String> seen = new HashMap<>();
            for (String child : e.getValue()) {
                Matcher m = CHILD.matcher(child);
                if (!m.matches()) {
                    found.add("phantom", parent, where + " (index " + at + ") holds '" + child + "' under " + parent
                            + ", which no create of the workload names", at);
                    continue;
                }
                long value = Long.parseLong(m.group(1));
                long seq = Long.parseLong(m.group(2));
                String twin = seqs.putIfAbsent(seq, child);
                if (twin != null) {
                    found.add("unique-name", parent, where + " (index " + at + ") holds '" + twin + "' and '" + child
                            + "' under " + parent + ": one sequence number, two children", at);
                }
                String again = seen.putIfAbsent(value, child);
                if (again != null) {
                    found.add("duplicate", parent, where + " (index " + at + ") holds value " + value + " twice under "
                            + parent + " ('" + again + "', '" + child + "'): a create happens once or not at all",
                            at);
                }
                Create c = values.get(value);
                if (c == null || c.op().isFail()) {
                    found.add("phantom", parent, where + " (index " + at + ") holds '" + child + "' under " + parent
                            + (c == null ? ", which no create made" : ", though " + c.who() + " failed (index "
                            + c.op().completeIndex() + ")"), at);
                } else if (c.op().isOk() && !c.name().equals(child)) {
                    found.add("name-mismatch", parent, c.who() + " was acknowledged as '" + c.name() + "' (index "
                            + c.op().completeIndex() + "), but " + where + " (index " + at + ") holds it as '"
                            + child + "'", c.op().completeIndex(), at);
                } else if (c.op().isInfo()) {
                    presentIndeterminate.add(parent + "/" + value);
                }
            }
            if (r.node() == null) {
                for (Create c : creates.getOrDefault(parent, List.of())) {
                    boolean required = c.op().isOk() && c.op().completeIndex() < at
                            && (!c.ephemeral() || c.op().process() == r.op().process());
                    if (required && !seen.containsKey(c.value())) {
                        found.add("lost", parent, where + " of " + parent + " (index " + at + ", synced) misses '"
                                + c.name() + "', " + c.who() + (c.ephemeral() ? " (an ephemeral of its own session)"
                                : "") + ", acknowledged before it began (index " + c.op().completeIndex() + ")",
                                c.op().completeIndex(), at);
                    }
                }
            }
        }
    }

    /** A server's final read holds every acknowledged persistent child acknowledged before it began. */
    private static void finalRead(Read r, Map<String, List<Create>> creates, Findings found) {
        for (Map.Entry<String, List<Create>> e : creates.entrySet()) {
            Set<String> held = new java.util.HashSet<>(r.children().getOrDefault(e.getKey(), List.of()));
            for (Create c : e.getValue()) {
                if (c.op().isOk() && !c.ephemeral() && c.op().completeIndex() < r.op().invokeIndex()
                        && !held.contains(c.name())) {
                    found.add("lost", e.getKey(), c.who() + " was acknowledged as '" + c.name() + "' (index "
                            + c.op().completeIndex() + "), but the final read of " + r.node() + " (index "
                            + r.op().invokeIndex() + ") does not hold it", c.op().completeIndex(),
                            r.op().invokeIndex());
                }
            }
        }
    }

    private static Create create(Operation op) {
        if (op.key() == null) {
            throw Values.malformed(op, "a create names its parent as the key");
        }
        Map<?, ?> in = Values.map(op.input(), "the create's invoke value", op);
        long value = Values.longField(in, "value", "the create's invoke value", op);
        String mode = Values.stringField(in, "mode");
        if (!"persistent".equals(mode) && !"ephemeral".equals(mode)) {
            throw Values.malformed(op, "the create's \"mode\" must be persistent or ephemeral, got " + mode);
        }
        String name = null;
        long seq = -1;
        if (op.isOk()) {
            Map<?, ?> out = Values.map(op.output(), "the create's ok value", op);
            name = Values.stringField(out, "name");
            if (name == null) {
                throw Values.malformed(op, "an acknowledged create names the child in \"name\": " + out);
            }
            seq = Values.longField(out, "seq", "the create's ok value", op);
        }
        return new Create(op, op.key(), value, mode.equals("ephemeral"), name, seq);
    }

    private static Read read(Operation op) {
        Map<?, ?> out = Values.map(op.output(), "the read's ok value", op);
        Map<?, ?> children = Values.map(out.get("children"), "the read's \"children\"", op);
        Map<String, List<String>> m = new LinkedHashMap<>();
        children.forEach((parent, names) -> m.put(String.valueOf(parent), Values.list(names,
                "the children of " + parent, op).stream().map(String::valueOf).toList()));
        return new Read(op, Values.stringField(out, "node"), m);
    }

    /** Violations: every one counted, the first {@link SequentialReport#SHOWN} kept. */
    private static final class Findings {
        final Capped<SequentialViolation> all = new Capped<>(SequentialReport.SHOWN);

        void add(String rule, String parent, String text, long... indices) {
            all.add(rule, new SequentialViolation(rule, parent, text,
                    java.util.Arrays.stream(indices).boxed().toList()));
        }
    }

    private static String summary(Validity validity, SequentialReport r) {
        StringBuilder s = new StringBuilder();
        if (r.violationCount() > 0) {
            s.append(r.violationCount()).append(" violation(s): ");
            s.append(String.join("; ", r.violations().stream().limit(3).map(v -> v.rule() + ": " + v.text())
                    .toList()));
            s.append(r.violationCount() > 3 ? "; and " + (r.violationCount() - 3) + " more" : "").append(". ");
        } else if (validity == Validity.UNKNOWN) {
            s.append(r.acknowledged() == 0 ? "No sequential create was acknowledged: nothing to check. "
                    : "No server's final read completed: nothing to check the acknowledged creates against. ");
        }
        s.append(r.acknowledged()).append(" acknowledged sequential create(s) under ").append(r.parents().size())
                .append(" parent(s) (").append(r.ephemeral()).append(" ephemeral), ").append(r.indeterminate())
                .append(" indeterminate (").append(r.indeterminatePresent()).append(" present once, ")
                .append(r.indeterminate() - r.indeterminatePresent()).append(" absent), ").append(r.failed())
                .append(" failed; ").append(r.reads()).append(" read(s) checked, the final reads of ")
                .append(r.finalReads().isEmpty() ? "no server" : String.join(", ", r.finalReads())).append('.');
        return s.toString();
    }
}
