package io.zkchaos.checkers.state;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Checker;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.Values;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Operation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Final state: after the heal and the recovery, every server holds the same data tree, and no ephemeral of a session
 * that has ended outlives the session timeout.
 *
 * <h2>History contract</h2>
 * (see {@code docs/history-conventions.md}) {@code read-tree}, invoked with {@code {"node": "n1"}}, completed ok with
 * {@code {"node": "n1", "round": r, "sessionTimeout": ms, "zxid": z, "znodes": {path: {"data": "...", "version": v,
 * "cversion": c, "czxid": z, "mzxid": z, "pzxid": z, "owner": "0x..."}}}} ({@code owner} only on ephemerals,
 * {@code dataBase64} instead of {@code data} for bytes that are not text), or {@code info} when the server could not
 * be read. A znode may also hold {@code "acl"}: its ACL as {@link WorkloadAcls}' canonical text; the result may
 * hold {@code "acls": "per-client"} and {@code "aclRoot": path} when the run gave the workload's znodes (at and below
 * that path) per-client ACLs. Each server's last {@code read-tree} is its final tree. Every client session of the run has ended
 * (closed, or abandoned by a retired process so that it expires) when the first {@code read-tree} begins.
 *
 * <h2>Verdict</h2>
 * Invalid when two servers' final trees differ in any znode or any field of one — whether or not a client ever read
 * the difference — or when an ephemeral is still held by a read that began more than session timeout +
 * {@link #EXPIRY_MARGIN} after the first {@code read-tree} (its owner, like every client session, had ended by then;
 * the margin covers a leader election after the heal, which restarts every session's clock), or, in a per-client
 * run, when a workload znode's ACL is neither setup's nor one client's ({@link WorkloadAcls#unexpected}; an ACL
 * that differs between servers is a difference like any other field's). Unknown when no tree
 * was read, when a server's last read was not ok, or when ephemerals were only seen before that bound. Else valid.
 */
public final class FinalStateChecker implements Checker {

    /** The {@code f} of a final tree read. */
    public static final String READ_TREE = "read-tree";
    /** The {@code "acls"} of a read-tree result of a run whose workload znodes carry per-client ACLs. */
    public static final String PER_CLIENT = "per-client";
    /** Beyond the session timeout, how long an ended session's ephemerals may live. */
    public static final Duration EXPIRY_MARGIN = Duration.ofSeconds(5);
    /** Differences listed in the report (all are counted). */
    public static final int MAX_DIFFERENCES = 50;

    /** The fields explanations name first when they differ (any other field is compared and named too). */
    private static final List<String> FIELDS = List.of("data", "dataBase64", "dataSha256", "dataBytes", "version", "cversion", "owner",
            "acl", "czxid", "mzxid", "pzxid");
    /** Unexpected ACLs listed in the report (all are counted in the summary). */
    public static final int MAX_ACLS = 50;

    /** How long after the first final read an ended session's ephemerals must be gone. */
    public static Duration expiryBound(Duration sessionTimeout) {
        return sessionTimeout.plus(EXPIRY_MARGIN);
    }

    @Override
    public String name() {
        return "final-state";
    }

    private record Attempt(String node, Operation op, ServerTree tree, long sessionTimeoutMs, String aclRoot) {
    }

    @Override
    public CheckResult check(History history) {
        Map<String, Attempt> last = new TreeMap<>();
        long t0 = Long.MAX_VALUE;
        boolean timed = true;
        int reads = 0;
        for (Operation op : history.operations()) {
            if (!op.f().equals(READ_TREE)) {
                continue;
            }
            reads++;
            Attempt a = parse(op);
            Attempt before = last.get(a.node());
            if (before == null || before.op().invokeIndex() < op.invokeIndex()) {
                last.put(a.node(), a);
            }
            if (op.invokeTime() < 0) {
                timed = false;
            } else {
                t0 = Math.min(t0, op.invokeTime());
            }
        }
        if (reads == 0) {
            return CheckResult.of(name(), Validity.UNKNOWN, "No read-tree result to check.",
                    new FinalStateReport(List.of(), List.of(), List.of(), List.of(), 0, List.of(), 0, -1));
        }
        List<ServerTree> trees = new ArrayList<>();
        List<String> unread = new ArrayList<>();
        List<String> unreadWhy = new ArrayList<>();
        long sessionTimeoutMs = -1;
        for (Attempt a : last.values()) {
            if (a.tree() == null) {
                unread.add(a.node());
                unreadWhy.add(a.node() + " (" + (a.op().error() == null ? "no answer" : a.op().error()) + ")");
            } else {
                trees.add(a.tree());
                sessionTimeoutMs = Math.max(sessionTimeoutMs, a.sessionTimeoutMs());
            }
        }

        // group the servers by identical trees, the largest group first
        Map<Map<String, Map<String, Object>>, List<String>> byTree = new LinkedHashMap<>();
        for (ServerTree t : trees) {
            byTree.computeIfAbsent(t.znodes(), k -> new ArrayList<>()).add(t.node());
        }
        List<List<String>> groups = byTree.values().stream()
                .sorted(Comparator.<List<String>>comparingInt(List::size).reversed()
                        .thenComparing(g -> g.get(0)))
                .map(List::copyOf).toList();
        Map<String, ServerTree> treeOf = new LinkedHashMap<>();
        trees.forEach(t -> treeOf.put(t.node(), t));
        List<TreeDifference> differences = new ArrayList<>();
        int totalDifferences = 0;
        if (groups.size() > 1) {
            TreeSet<String> paths = new TreeSet<>();
            trees.forEach(t -> paths.addAll(t.znodes().keySet()));
            for (String path : paths) {
                Map<String, Map<String, Object>> byNode = new LinkedHashMap<>();
                for (ServerTree t : trees) {
                    byNode.put(t.node(), t.znodes().get(path));
                }
                if (byNode.values().stream().distinct().count() > 1) {
                    totalDifferences++;
                    if (differences.size() < MAX_DIFFERENCES) {
                        differences.add(new TreeDifference(path, byNode, explain(path, byNode)));
                    }
                }
            }
        }

        // ephemerals: every client session had ended when the first read-tree began
        long boundNanos = sessionTimeoutMs < 0 ? -1
                : Values.nanos(expiryBound(Duration.ofMillis(sessionTimeoutMs)));
        List<LeftEphemeral> left = new ArrayList<>();
        int unjudged = 0;
        for (ServerTree t : trees) {
            for (Map.Entry<String, Map<String, Object>> z : new TreeMap<>(t.znodes()).entrySet()) {
                String owner = owner(z.getValue());
                if (owner == null) {
                    continue;
                }
                long after = timed && t.invokeTime() >= 0 ? t.invokeTime() - t0 : -1;
                if (boundNanos < 0 || after < boundNanos) {
                    unjudged++;
                    continue;
                }
                left.add(new LeftEphemeral(t.node(), z.getKey(), owner, t.readIndex(), after, "ephemeral "
                        + z.getKey() + " of session " + owner + " still on " + t.node() + " (read at index "
                        + t.readIndex() + ") " + Values.human(after) + " after every client session had ended"));
            }
        }

        Map<String, String> aclRoots = new TreeMap<>();
        last.values().stream().filter(a -> a.tree() != null && a.aclRoot() != null)
                .forEach(a -> aclRoots.put(a.node(), a.aclRoot()));
        List<UnexpectedAcl> acls = unexpectedAcls(trees, aclRoots);

        List<FinalStateReport.Server> servers = trees.stream().map(t -> new FinalStateReport.Server(t.node(),
                t.readIndex(), t.round(), t.znodes().size(),
                (int) t.znodes().values().stream().filter(z -> owner(z) != null).count(),
                "0x" + Long.toHexString(t.zxid()))).toList();
        FinalStateReport report = new FinalStateReport(servers, unread, groups, differences, totalDifferences, left,
                unjudged, boundNanos, acls.stream().limit(MAX_ACLS).toList());

        Validity validity = groups.size() > 1 || !left.isEmpty() || !acls.isEmpty() ? Validity.INVALID
                : !unread.isEmpty() || unjudged > 0 || trees.isEmpty() ? Validity.UNKNOWN : Validity.VALID;
        StringBuilder s = new StringBuilder();
        if (groups.size() > 1) {
            s.append(disagreement(groups, totalDifferences)).append(": ");
            s.append(differences.stream().limit(3).map(TreeDifference::explanation)
                    .collect(Collectors.joining("; ")));
            s.append(totalDifferences > 3 ? "; ...." : ".").append(' ');
        } else if (!trees.isEmpty()) {
            ServerTree any = trees.get(0);
            s.append(trees.size() == 1 ? "1 server's tree" : trees.size() + " servers hold identical trees")
                    .append(" of ").append(any.znodes().size()).append(" znode(s) (zxid 0x")
                    .append(Long.toHexString(any.zxid())).append(")").append(". ");
        }
        if (!left.isEmpty()) {
            Map<String, List<LeftEphemeral>> byPath = new TreeMap<>();
            left.forEach(e -> byPath.computeIfAbsent(e.path() + " (owner " + e.owner() + ")",
                    k -> new ArrayList<>()).add(e));
            s.append(byPath.size()).append(" ephemeral(s) of ended sessions outlived session timeout ")
                    .append(Values.human(Values.nanos(Duration.ofMillis(sessionTimeoutMs)))).append(" + margin ")
                    .append(Values.human(Values.nanos(EXPIRY_MARGIN))).append(": ")
                    .append(byPath.entrySet().stream().limit(3).map(e -> e.getKey() + " on "
                            + e.getValue().stream().map(LeftEphemeral::node).collect(Collectors.joining(", "))
                            + " " + Values.human(e.getValue().get(0).nanosAfter()) + " after the sessions ended")
                            .collect(Collectors.joining("; ")))
                    .append(byPath.size() > 3 ? "; ...." : ".").append(' ');
        } else if (unjudged > 0) {
            s.append(unjudged).append(" ephemeral(s) seen only before session timeout + margin had passed: not "
                    + "judged. ");
        } else if (!trees.isEmpty()) {
            s.append("No ephemeral left. ");
        }
        if (!acls.isEmpty()) {
            s.append(acls.size()).append(" workload znode(s) hold an ACL the run never gives: ")
                    .append(acls.stream().limit(3).map(UnexpectedAcl::explanation).collect(Collectors.joining("; ")))
                    .append(acls.size() > 3 ? "; ...." : ".").append(' ');
        } else if (!aclRoots.isEmpty()) {
            s.append("Every workload znode holds its per-client ACL. ");
        }
        if (!unread.isEmpty()) {
            s.append("Not read: ").append(String.join(", ", unreadWhy)).append('.');
        }
        return CheckResult.of(name(), validity, s.toString().trim(), report);
    }

    private static String disagreement(List<List<String>> groups, int differences) {
        List<String> parts = new ArrayList<>();
        for (List<String> g : groups) {
            parts.add(String.join(", ", g));
        }
        return "the servers' final trees differ (" + String.join(" | ", parts) + " agree among themselves) in "
                + differences + " znode(s)";
    }

    /** Which servers have what at {@code path}: the fields that differ, per variant. */
    static String explain(String path, Map<String, Map<String, Object>> byNode) {
        Map<Map<String, Object>, List<String>> variants = new LinkedHashMap<>();
        List<String> missing = new ArrayList<>();
        byNode.forEach((node, z) -> {
            if (z == null) {
                missing.add(node);
            } else {
                variants.computeIfAbsent(z, k -> new ArrayList<>()).add(node);
            }
        });
        java.util.Set<String> keys = new java.util.LinkedHashSet<>(FIELDS);
        variants.keySet().forEach(z -> keys.addAll(z.keySet()));
        List<String> fields = new ArrayList<>();
        for (String f : keys) {
            if (variants.keySet().stream().map(z -> z.get(f)).distinct().count() > 1) {
                fields.add(f);
            }
        }
        List<String> parts = new ArrayList<>();
        variants.forEach((z, nodes) -> parts.add((fields.isEmpty() ? "present on " : "") + String.join(", ", nodes)
                + fields.stream().map(f -> " " + f + " " + show(f, z.get(f))).collect(Collectors.joining())));
        if (!missing.isEmpty()) {
            parts.add("missing on " + String.join(", ", missing));
        }
        return path + ": " + String.join("; ", parts);
    }

    private static String show(String field, Object v) {
        if (v == null) {
            return "none";
        }
        if (field.endsWith("zxid") && v instanceof Long l) {
            return "0x" + Long.toHexString(l);
        }
        return v instanceof String str ? '"' + str + '"' : String.valueOf(v);
    }

    /**
     * The workload znodes (at and below each server's {@code aclRoot}) whose ACL is neither setup's nor one
     * client's: one entry per znode and ACL, naming the servers that hold it.
     */
    private static List<UnexpectedAcl> unexpectedAcls(List<ServerTree> trees, Map<String, String> aclRoots) {
        Map<String, Map<String, List<String>>> nodesByPathAndAcl = new TreeMap<>();
        for (ServerTree t : trees) {
            String root = aclRoots.get(t.node());
            if (root == null) {
                continue;
            }
            for (Map.Entry<String, Map<String, Object>> z : t.znodes().entrySet()) {
                String path = z.getKey();
                Object acl = z.getValue().get("acl");
                if (acl != null && under(path, root)) {
                    nodesByPathAndAcl.computeIfAbsent(path, k -> new TreeMap<>())
                            .computeIfAbsent(String.valueOf(acl), k -> new ArrayList<>()).add(t.node());
                }
            }
        }
        List<UnexpectedAcl> found = new ArrayList<>();
        nodesByPathAndAcl.forEach((path, byAcl) -> byAcl.forEach((acl, nodes) -> {
            String why = WorkloadAcls.unexpected(acl);
            if (why != null) {
                found.add(new UnexpectedAcl(path, nodes, acl, path + " on " + String.join(", ", nodes)
                        + " has ACL \"" + acl + "\": " + why));
            }
        }));
        return found;
    }

    private static boolean under(String path, String root) {
        return path.equals(root) || path.startsWith(root.equals("/") ? "/" : root + "/");
    }

    private static String owner(Map<String, Object> znode) {
        Object o = znode.get("owner");
        return o == null ? null : String.valueOf(o);
    }

    private static Attempt parse(Operation op) {
        String node = null;
        if (op.input() instanceof Map<?, ?> in) {
            node = Values.stringField(in, "node");
        }
        if (!op.isOk()) {
            if (node == null) {
                throw Values.malformed(op, "a read-tree that did not complete ok must name its server in the "
                        + "invoke value {\"node\": ...}");
            }
            return new Attempt(node, op, null, -1, null);
        }
        Map<?, ?> out = Values.map(op.output(), "the read-tree result", op);
        String outNode = Values.stringField(out, "node");
        if (outNode == null) {
            throw Values.malformed(op, "the read-tree result has no \"node\" field");
        }
        Map<?, ?> raw = Values.map(out.get("znodes"), "the read-tree result's \"znodes\"", op);
        Map<String, Map<String, Object>> znodes = new LinkedHashMap<>();
        long zxid = 0;
        for (Map.Entry<?, ?> e : raw.entrySet()) {
            String path = String.valueOf(e.getKey());
            Map<?, ?> fields = Values.map(e.getValue(), "znode " + path, op);
            Map<String, Object> z = new LinkedHashMap<>();
            fields.forEach((k, v) -> z.put(String.valueOf(k), Values.normalise(v)));
            for (String f : List.of("czxid", "mzxid", "pzxid")) {
                zxid = Math.max(zxid, Values.longField(fields, f, 0, "znode " + path, op));
            }
            znodes.put(path, z);
        }
        long round = Values.longField(out, "round", 1, "the read-tree result", op);
        long recordedZxid = Values.longField(out, "zxid", zxid, "the read-tree result", op);
        long timeout = Values.longField(out, "sessionTimeout", -1, "the read-tree result", op);
        String aclRoot = null;
        if (out.get("acls") != null) {
            String acls = Values.stringField(out, "acls");
            if (!PER_CLIENT.equals(acls)) {
                throw Values.malformed(op, "the read-tree result's \"acls\" must be \"" + PER_CLIENT + "\" (or "
                        + "absent), got \"" + acls + "\"");
            }
            aclRoot = Values.stringField(out, "aclRoot");
            if (aclRoot == null || !aclRoot.startsWith("/")) {
                throw Values.malformed(op, "a per-client read-tree result must name the workload's root znode in "
                        + "\"aclRoot\"");
            }
        }
        return new Attempt(outNode, op, new ServerTree(outNode, op.completeIndex(), op.invokeTime(), round,
                recordedZxid, znodes), timeout, aclRoot);
    }
}
