package io.zkchaos.checkers.log;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Checker;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.Values;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Operation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Log prefix, for the project's own ZAB nodes: the committed logs of all nodes are prefixes of one another, and
 * nothing committed ever disappears.
 *
 * <h2>History contract</h2>
 * (see {@code docs/history-conventions.md}) {@code read-log} completed ok with value
 * {@code {"node": "n1", "log": [[zxid, value], ...]}}: the node's committed log in order. A node may be read several
 * times over a run; its last read is its final log.
 *
 * <h2>Verdict</h2>
 * Invalid when any two logs ever read (of any nodes, at any time) are not prefixes of one another — checked against
 * the longest log read, which every log must then prefix; when a node's later read lacks entries its earlier read had
 * (a committed entry rolled back); when an entry read once is in no node's final log; or when zxids do not increase
 * within a log. Unknown when no log was read.
 */
public final class LogPrefixChecker implements Checker {

    @Override
    public String name() {
        return "log-prefix";
    }

    private record Read(String node, Operation op, List<LogEntry> log) {
    }

    @Override
    public CheckResult check(History history) {
        List<Read> reads = new ArrayList<>();
        for (Operation op : history.operations()) {
            if (op.f().equals("read-log") && op.isOk()) {
                Map<?, ?> m = Values.map(op.output(), "the read-log result", op);
                String node = Values.stringField(m, "node");
                if (node == null) {
                    throw Values.malformed(op, "the read-log result has no \"node\" field: " + m);
                }
                List<?> raw = Values.list(m.get("log"), "the read-log result's \"log\"", op);
                List<LogEntry> log = new ArrayList<>(raw.size());
                for (int i = 0; i < raw.size(); i++) {
                    List<?> pair = Values.list(raw.get(i), "log entry " + i, op);
                    if (pair.size() != 2) {
                        throw Values.malformed(op, "log entry " + i + " must be [zxid, value] but is " + pair);
                    }
                    log.add(new LogEntry(Values.asLong(pair.get(0), "the zxid of log entry " + i, op),
                            Values.normalise(pair.get(1))));
                }
                reads.add(new Read(node, op, log));
            }
        }
        reads.sort((a, b) -> Long.compare(a.op().completeIndex(), b.op().completeIndex()));
        List<LogViolation> violations = new ArrayList<>();
        Read longest = null;
        for (Read r : reads) {
            for (int i = 1; i < r.log().size(); i++) {
                if (r.log().get(i).zxid() <= r.log().get(i - 1).zxid()) {
                    violations.add(new LogViolation("zxid-order", r.node(), r.op().completeIndex(), i, r.log().get(i),
                            r.node(), r.log().get(i - 1), r.node() + "'s log (read at index " + r.op().completeIndex()
                            + ") has " + r.log().get(i) + " at position " + i + " after " + r.log().get(i - 1)));
                }
            }
            if (longest == null || r.log().size() > longest.log().size()) {
                longest = r;
            }
        }
        // every log must prefix the longest; reported once per diverging node
        Set<String> diverged = new HashSet<>();
        for (Read r : reads) {
            int at = divergence(r.log(), longest.log());
            if (at >= 0 && diverged.add(r.node())) {
                violations.add(new LogViolation("diverged", r.node(), r.op().completeIndex(), at, r.log().get(at),
                        longest.node(), longest.log().get(at), "the logs of " + r.node() + " (read at index "
                        + r.op().completeIndex() + ") and " + longest.node() + " (read at index "
                        + longest.op().completeIndex() + ") diverge at position " + at + ": " + r.log().get(at)
                        + " vs " + longest.log().get(at)));
            }
        }
        // per node, every read must prefix the next
        Map<String, Read> last = new LinkedHashMap<>();
        Map<String, Integer> count = new LinkedHashMap<>();
        for (Read r : reads) {
            Read before = last.put(r.node(), r);
            count.merge(r.node(), 1, Integer::sum);
            if (before == null) {
                continue;
            }
            int at = divergence(before.log(), r.log());
            if (at >= 0) {
                LogEntry now = at < r.log().size() ? r.log().get(at) : null;
                violations.add(new LogViolation("disappeared", r.node(), r.op().completeIndex(), at,
                        now, r.node() + " earlier", before.log().get(at), r.node() + " lost committed "
                        + before.log().subList(at, before.log().size()) + ": read at index "
                        + before.op().completeIndex() + " it had " + before.log().size() + " entries, read at index "
                        + r.op().completeIndex() + " it has " + (now == null ? r.log().size() + " entries"
                        : now + " at position " + at)));
            }
        }
        // nothing read once may be missing from every final log
        if (longest != null) {
            Read finalLongest = last.values().stream().max((a, b) -> Integer.compare(a.log().size(),
                    b.log().size())).orElseThrow();
            if (finalLongest.log().size() < longest.log().size()) {
                int at = finalLongest.log().size();
                violations.add(new LogViolation("lost-everywhere", longest.node(), longest.op().completeIndex(), at,
                        longest.log().get(at), null, null, "committed " + longest.log().subList(at,
                        longest.log().size()) + " (read on " + longest.node() + " at index "
                        + longest.op().completeIndex() + ") is in no node's final log; the longest final log, "
                        + finalLongest.node() + "'s, has " + at + " entries"));
            }
        }
        List<NodeLog> nodes = new ArrayList<>();
        last.forEach((node, r) -> nodes.add(new NodeLog(node, count.get(node), r.log().size(),
                r.log().isEmpty() ? null : r.log().get(r.log().size() - 1))));
        LogReport report = new LogReport(nodes, longest == null ? 0 : longest.log().size(), violations);
        Validity validity = !violations.isEmpty() ? Validity.INVALID
                : reads.isEmpty() ? Validity.UNKNOWN : Validity.VALID;
        StringBuilder s = new StringBuilder();
        if (reads.isEmpty()) {
            s.append("No read-log result to check.");
        } else {
            if (!violations.isEmpty()) {
                s.append(violations.size()).append(" violation(s): ");
                violations.stream().limit(3).forEach(v -> s.append(v.explanation()).append("; "));
                s.setLength(s.length() - 2);
                s.append(violations.size() > 3 ? "; .... " : ". ");
            }
            s.append(reads.size()).append(" log read(s) of ").append(nodes.size()).append(" node(s)");
            s.append(violations.isEmpty() ? " are prefixes of one another; the longest has " : "; the longest has ")
                    .append(report.longest()).append(" entries.");
        }
        return CheckResult.of(name(), validity, s.toString(), report);
    }

    /** The first position where {@code a} is not a prefix of {@code b}, or -1 if it is. */
    private static int divergence(List<LogEntry> a, List<LogEntry> b) {
        for (int i = 0; i < a.size(); i++) {
            if (i >= b.size() || !Objects.equals(a.get(i), b.get(i))) {
                return i;
            }
        }
        return -1;
    }
}
