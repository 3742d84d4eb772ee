package io.zkchaos.checkers.set;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Checker;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.Values;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Operation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * No lost commit, for set (and append) histories.
 *
 * <h2>History contract</h2>
 * (see {@code docs/history-conventions.md}) {@code add} (or {@code append}) with the element (a long or a string)
 * as value, completed ok, fail or info. {@code read} completed ok with either a list of elements or a map
 * {@code {"node": "n1", "values": [...]}} for a read from one server. The final read of a server is its last ok read;
 * a read that names no server counts as the final read of its process.
 *
 * <h2>Verdict</h2>
 * Invalid when an acknowledged add is missing from a final read that was invoked after the add's ok (the report
 * lists each lost value with its invoke and ack times and the servers that lack it), or when any read returns a
 * value no add invoked, or whose every add failed. Info adds may be present or absent. A final read invoked before
 * an add's ack is not required to hold it (such adds are counted as not covered). Unknown when there is no read.
 */
public final class NoLostCommitChecker implements Checker {

    @Override
    public String name() {
        return "no-lost-commit";
    }

    @Override
    public CheckResult check(History history) {
        Map<Object, Operation> acked = new LinkedHashMap<>();
        Set<Object> attempted = new LinkedHashSet<>();
        Set<Object> maybe = new HashSet<>(); // ok or info: could be present
        Map<Object, Operation> firstInfo = new LinkedHashMap<>();
        Map<String, Operation> finalReads = new LinkedHashMap<>();
        // By identity: an Operation record hashes its whole output, a list of every value read.
        Map<Operation, Set<Object>> readValues = new java.util.IdentityHashMap<>();
        List<Operation> reads = new ArrayList<>();
        List<String> unreadErrors = new ArrayList<>();
        for (Operation op : history.operations()) {
            if (op.f().equals("add") || op.f().equals("append")) {
                Object v = Values.normalise(op.input());
                attempted.add(v);
                if (op.isOk()) {
                    acked.putIfAbsent(v, op);
                    maybe.add(v);
                } else if (op.isInfo()) {
                    firstInfo.putIfAbsent(v, op);
                    maybe.add(v);
                }
            } else if (op.f().equals("read") && !op.isOk()) {
                unreadErrors.add("read by process " + op.process() + " at index " + op.invokeIndex() + " ended "
                        + op.outcome().name().toLowerCase(java.util.Locale.ROOT)
                        + (op.error() == null ? "" : ": " + op.error()));
            } else if (op.f().equals("read") && op.isOk()) {
                String source;
                List<?> values;
                if (op.output() instanceof Map<?, ?> m) {
                    source = Values.stringField(m, "node");
                    if (source == null) {
                        throw Values.malformed(op, "a read returning a map must name the server in \"node\": " + m);
                    }
                    values = Values.list(m.get("values"), "the read's \"values\"", op);
                } else {
                    source = "process " + op.process();
                    values = Values.list(op.output(), "the read result", op);
                }
                Set<Object> set = new LinkedHashSet<>();
                values.forEach(x -> set.add(Values.normalise(x)));
                readValues.put(op, set);
                reads.add(op);
                finalReads.merge(source, op, (a, b) -> b.completeIndex() > a.completeIndex() ? b : a);
            }
        }

        List<UnexpectedValue> unexpected = new ArrayList<>();
        Set<Object> reportedUnexpected = new HashSet<>();
        for (Operation read : reads) {
            for (Object v : readValues.get(read)) {
                if (!maybe.contains(v) && reportedUnexpected.add(v)) {
                    unexpected.add(new UnexpectedValue(v, attempted.contains(v) ? "add failed" : "never added",
                            sourceOf(read), read.completeIndex()));
                }
            }
        }

        List<FinalRead> finals = new ArrayList<>();
        finalReads.forEach((source, op) -> finals.add(new FinalRead(source, op.invokeIndex(), op.completeIndex(),
                readValues.get(op).size())));
        List<LostValue> lost = new ArrayList<>();
        int notCovered = 0;
        for (Map.Entry<Object, Operation> e : acked.entrySet()) {
            Operation add = e.getValue();
            List<String> lacking = new ArrayList<>();
            boolean covered = false;
            for (Map.Entry<String, Operation> f : finalReads.entrySet()) {
                if (f.getValue().invokeIndex() > add.completeIndex()) {
                    covered = true;
                    if (!readValues.get(f.getValue()).contains(e.getKey())) {
                        lacking.add(f.getKey());
                    }
                }
            }
            if (!covered) {
                notCovered++;
            }
            if (!lacking.isEmpty()) {
                lost.add(new LostValue(e.getKey(), add.process(), add.invokeIndex(), add.completeIndex(),
                        add.invokeTime(), add.completeTime(), List.copyOf(lacking)));
            }
        }
        int infoPresent = 0;
        int infoAbsent = 0;
        for (Object v : firstInfo.keySet()) {
            if (acked.containsKey(v)) {
                continue;
            }
            boolean present = finalReads.values().stream().anyMatch(r -> readValues.get(r).contains(v));
            if (present) {
                infoPresent++;
            } else {
                infoAbsent++;
            }
        }
        int indeterminate = (int) firstInfo.keySet().stream().filter(v -> !acked.containsKey(v)).count();
        SetReport report = new SetReport(attempted.size(), acked.size(), indeterminate, finals, lost, unexpected,
                infoPresent, infoAbsent, notCovered, List.copyOf(unreadErrors));
        Validity validity = !lost.isEmpty() || !unexpected.isEmpty() ? Validity.INVALID
                : finals.isEmpty() || acked.isEmpty() ? Validity.UNKNOWN : Validity.VALID;
        return CheckResult.of(name(), validity, summary(validity, report), report);
    }

    private static String sourceOf(Operation read) {
        return read.output() instanceof Map<?, ?> m ? Values.stringField(m, "node") : "process " + read.process();
    }

    private static String summary(Validity validity, SetReport r) {
        StringBuilder s = new StringBuilder();
        if (validity == Validity.UNKNOWN && r.finalReads().isEmpty()) {
            s.append("No ok read to check ").append(r.acknowledged()).append(" acknowledged add(s) against. ");
        } else if (validity == Validity.UNKNOWN) {
            s.append("No add was acknowledged: nothing could be lost, so nothing was checked. ");
        }
        if (!r.lost().isEmpty()) {
            s.append(r.lost().size()).append(" acknowledged add(s) lost: ");
            List<String> parts = new ArrayList<>();
            for (LostValue l : r.lost().subList(0, Math.min(5, r.lost().size()))) {
                parts.add(l.value() + " (added by process " + l.process() + ", invoked at "
                        + Values.human(l.invokeNanos()) + ", acknowledged at " + Values.human(l.ackNanos())
                        + ", missing on " + String.join(", ", l.lackingIn()) + ")");
            }
            s.append(String.join("; ", parts)).append(r.lost().size() > 5 ? "; ..." : "").append(". ");
        }
        if (!r.unexpected().isEmpty()) {
            s.append(r.unexpected().size()).append(" unexpected value(s) read: ");
            List<String> parts = new ArrayList<>();
            for (UnexpectedValue u : r.unexpected().subList(0, Math.min(5, r.unexpected().size()))) {
                parts.add(u.value() + " (" + u.reason() + ", read on " + u.readIn() + ")");
            }
            s.append(String.join("; ", parts)).append(r.unexpected().size() > 5 ? "; ..." : "").append(". ");
        }
        s.append(r.acknowledged()).append(" of ").append(r.attempted()).append(" add(s) acknowledged, checked against ")
                .append(r.finalReads().size()).append(" final read(s); ").append(r.indeterminate())
                .append(" indeterminate (").append(r.infoPresent()).append(" present, ").append(r.infoAbsent())
                .append(" absent)");
        if (r.notCovered() > 0) {
            s.append("; ").append(r.notCovered()).append(" acknowledged after every final read began, not checked");
        }
        if (!r.unreadErrors().isEmpty()) {
            s.append("; ").append(r.unreadErrors().size()).append(" read(s) did not complete (")
                    .append(r.unreadErrors().get(0)).append(r.unreadErrors().size() > 1 ? "; ..." : "")
                    .append("): servers not read cannot be judged");
        }
        s.append('.');
        return s.toString();
    }
}
