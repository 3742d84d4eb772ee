package io.zkchaos.checkers.fenced;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Checker;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.Values;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Operation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Fenced writes: no write is accepted with a token lower than one already accepted.
 *
 * <h2>History contract</h2>
 * (see {@code docs/history-conventions.md}) {@code fenced-write} with value {@code {"token": long, "value": v}},
 * completed ok when the store accepted it, fail when it rejected it as stale, info when unknown. Optionally a final
 * {@code read} whose ok value is the store's log: the list of accepted {@code {"token", "value"}} in store order.
 * Values are expected unique, so that a log entry identifies its write.
 *
 * <h2>Verdict</h2>
 * Invalid when a write was acknowledged although a write with a higher token had been acknowledged before it was
 * even invoked (real-time order); and, when the log was read (the last ok read is taken): when the log has an entry
 * after one with a higher token, lacks an acknowledged write, holds a rejected write, or holds a value no write
 * invoked. Equal tokens are fine: one leader writes many times with its token.
 */
public final class FencedWritesChecker implements Checker {

    @Override
    public String name() {
        return "fenced-writes";
    }

    private record Write(Operation op, long token, Object value) {
    }

    @Override
    public CheckResult check(History history) {
        List<Write> writes = new ArrayList<>();
        Operation log = null;
        for (Operation op : history.operations()) {
            if (op.f().equals("fenced-write")) {
                Map<?, ?> m = Values.map(op.input(), "the fenced-write argument", op);
                writes.add(new Write(op, Values.longField(m, "token", "the fenced-write argument", op),
                        Values.normalise(m.get("value"))));
            } else if (op.f().equals("read") && op.isOk()
                    && (log == null || op.completeIndex() > log.completeIndex())) {
                log = op;
            }
        }
        if (writes.isEmpty()) {
            return CheckResult.of(name(), Validity.UNKNOWN, "No fenced-write operation in the history: nothing to "
                    + "check (is this a fenced-writes workload?).", null);
        }
        List<FencedViolation> violations = new ArrayList<>();
        // real time: acknowledged after a higher token was acknowledged before this write's invoke
        for (Write w : writes) {
            if (!w.op().isOk()) {
                continue;
            }
            Write higher = null;
            for (Write x : writes) {
                if (x.op().isOk() && x.op().completeIndex() < w.op().invokeIndex() && x.token() > w.token()
                        && (higher == null || x.token() > higher.token())) {
                    higher = x;
                }
            }
            if (higher != null) {
                violations.add(new FencedViolation("accepted-after-higher", w.token(), w.value(),
                        w.op().completeIndex(), higher.token(), higher.op().completeIndex(),
                        "write " + w.value() + " with token " + w.token() + " (process " + w.op().process()
                        + ", acknowledged at index " + w.op().completeIndex() + ") was accepted after token "
                        + higher.token() + " had been accepted at index " + higher.op().completeIndex()));
            }
        }
        int logLength = -1;
        if (log != null) {
            logLength = checkLog(log, writes, violations);
        }
        int accepted = (int) writes.stream().filter(w -> w.op().isOk()).count();
        int rejected = (int) writes.stream().filter(w -> w.op().isFail()).count();
        int info = writes.size() - accepted - rejected;
        int staleLanded = (int) violations.stream()
                .filter(v -> v.kind().equals("accepted-after-higher") || v.kind().equals("log-order"))
                .map(FencedViolation::value).distinct().count();
        FencedReport report = new FencedReport(accepted, rejected, info, logLength, staleLanded, violations);
        // With no write accepted there was nothing a stale leader could have overtaken.
        Validity validity = !violations.isEmpty() ? Validity.INVALID
                : accepted == 0 ? Validity.UNKNOWN : Validity.VALID;
        StringBuilder s = new StringBuilder();
        if (accepted == 0 && violations.isEmpty()) {
            s.append("No fenced write was accepted: nothing to check. ");
        }
        if (!violations.isEmpty()) {
            s.append(violations.size()).append(" fencing violation(s): ");
            violations.stream().limit(3).forEach(v -> s.append(v.explanation()).append("; "));
            s.setLength(s.length() - 2);
            s.append(violations.size() > 3 ? "; ...; " : ". ");
        }
        s.append(accepted).append(" write(s) accepted, ").append(rejected).append(" rejected as stale, ")
                .append(info).append(" indeterminate; ")
                .append(staleLanded == 0 ? "" : staleLanded + " stale write(s) landed after a newer leader's; ")
                .append(logLength < 0 ? "no log read" : "log of " + logLength + " entries checked").append('.');
        return CheckResult.of(name(), validity, s.toString(), report);
    }

    private static int checkLog(Operation log, List<Write> writes, List<FencedViolation> violations) {
        List<?> entries = Values.list(log.output(), "the log read", log);
        Map<Object, List<Write>> byValue = new HashMap<>();
        writes.forEach(w -> byValue.computeIfAbsent(w.value(), k -> new ArrayList<>()).add(w));
        long maxToken = Long.MIN_VALUE;
        int maxAt = -1;
        List<Object> logged = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            Map<?, ?> e = Values.map(entries.get(i), "log entry " + i, log);
            long token = Values.longField(e, "token", "log entry " + i, log);
            Object value = Values.normalise(e.get("value"));
            logged.add(value);
            if (token < maxToken) {
                violations.add(new FencedViolation("log-order", token, value, log.completeIndex(), maxToken, maxAt,
                        "log entry " + i + " (" + value + ", token " + token + ") was stored after entry " + maxAt
                        + " with the higher token " + maxToken));
            }
            if (token > maxToken) {
                maxToken = token;
                maxAt = i;
            }
            List<Write> ws = byValue.getOrDefault(value, List.of());
            if (ws.isEmpty()) {
                violations.add(new FencedViolation("never-written", token, value, log.completeIndex(), -1, -1,
                        "log entry " + i + " (" + value + ", token " + token + ") was never written"));
            } else if (ws.stream().allMatch(w -> w.op().isFail())) {
                violations.add(new FencedViolation("rejected-but-stored", token, value, log.completeIndex(), -1, -1,
                        "log entry " + i + " (" + value + ", token " + token + ") was rejected as stale at index "
                        + ws.get(0).op().completeIndex() + " yet stored"));
            }
        }
        for (Write w : writes) {
            if (w.op().isOk() && w.op().completeIndex() < log.invokeIndex()
                    && logged.stream().noneMatch(v -> Objects.equals(v, w.value()))) {
                violations.add(new FencedViolation("missing-from-log", w.token(), w.value(), w.op().completeIndex(),
                        -1, -1, "write " + w.value() + " with token " + w.token() + " was acknowledged at index "
                        + w.op().completeIndex() + " but is not in the log"));
            }
        }
        return entries.size();
    }
}
