package io.zkchaos.checkers.recovery;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Checker;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.Values;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.checkers.history.Operation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Recovery as a promise: after the final heal, with every fault undone, the ensemble acknowledges writes again and
 * every server serves, each within a bound. An ensemble that stays unavailable, or a server that never comes back
 * (it crash-loops, or hangs in its election), is a failure users care about as much as a lost write.
 *
 * <h2>History contract</h2>
 * (see {@code docs/history-conventions.md}) The final heal is the last nemesis {@code heal} completion. After the
 * clients have ended, the harness probes, as processes from {@link #PROCESS_BASE} up:
 * <ul>
 *   <li>{@code recovery-write} (at most one), invoked with {@code {"boundMs": b}}: {@code ok} once a write of its own
 *       was acknowledged, {@code fail} with the last error when none was within the bound;</li>
 *   <li>{@code recovery-serve} (one per server, key = the node), invoked with {@code {"boundMs": b}}: {@code ok}
 *       with {@code {"node", "state"}} once the server was seen serving, {@code fail} with {@code {"node", "state",
 *       "log"}} (what it was last seen doing, the end of its log) when it did not within the bound.</li>
 * </ul>
 * A client's own acknowledged write after the final heal counts as the ensemble acknowledging writes. A write is an
 * operation that changes the system's state, named by its function: the workload's descriptor declares its writes,
 * and the harness records them in every probe's invoke value as {@code "writes": [f, ...]}. A history without that
 * list (one from before it, or written by hand) is judged with {@link #KNOWN_WRITES}, the writes of the built-in
 * workloads. Reads, watch and session events ({@code ok} by construction) and every other function never count.
 *
 * <h2>Verdict</h2>
 * Invalid when a server did not serve, or served later than the bound after the final heal, or when no write was
 * acknowledged within the bound although one was tried (the probe failed, or the first acknowledgement came later).
 * Unknown when the history has no final heal or no probe (nothing to judge), when the final heal itself failed (its
 * completion carries an {@code error}: the harness left a fault in place, so a server that stays down is the
 * harness's doing), or when no write was acknowledged after the final heal and the harness probed none (whether
 * writes recover was not tested). Else valid, with the times.
 */
public final class RecoveryChecker implements Checker {

    /** The harness's recovery probes use process numbers from here up (the final reads 1 000 000, trees 2 000 000). */
    public static final int PROCESS_BASE = 3_000_000;
    /** The probe's write. */
    public static final String WRITE = "recovery-write";
    /** The probe of one server. */
    public static final String SERVE = "recovery-serve";
    /** Client processes are numbered below this (the harness's own from it up). */
    private static final int HARNESS_PROCESSES = io.zkchaos.checkers.history.History.HARNESS_PROCESS_BASE;
    /** The key of the probes' invoke value that lists the workload's write functions. */
    public static final String WRITES = "writes";
    /**
     * The write functions of the built-in workloads (each workload's descriptor declares its own), for a history
     * whose probes do not list them: {@code write}, {@code cas} (register), {@code add}, {@code append} (set),
     * {@code acquire} (an election candidate's create of its znode), {@code fenced-write}, {@code create},
     * {@code set}, {@code delete} (watches, sessions, sequential), {@code close}, {@code expire} (a session's close,
     * a transaction of its own), {@code txn} (multi).
     */
    public static final Set<String> KNOWN_WRITES = Set.of("write", "cas", "add", "append", "acquire", "fenced-write",
            "create", "set", "delete", "close", "expire", "txn");

    @Override
    public String name() {
        return "recovery";
    }

    @Override
    public CheckResult check(History history) {
        Optional<Op> heal = finalHeal(history);
        List<Operation> probes = history.operations().stream()
                .filter(o -> o.process() >= PROCESS_BASE && (WRITE.equals(o.f()) || SERVE.equals(o.f()))).toList();
        if (heal.isEmpty() || probes.isEmpty()) {
            return CheckResult.of(name(), Validity.UNKNOWN, "nothing to check: " + (heal.isEmpty()
                    ? "no final heal in the history" : "no recovery probe after the final heal"), null);
        }
        if (heal.get().value() instanceof Map<?, ?> v && v.get("error") != null) {
            // The harness did not undo its own faults (a node it could not restart stays down): whether the system
            // recovers was not tested, and a server the harness left down is not the system's failure.
            return CheckResult.of(name(), Validity.UNKNOWN, "recovery not judged: the harness's final heal failed ("
                    + v.get("error") + ")", null);
        }
        long healTime = heal.get().time();
        long bound = boundMillis(probes.get(0));
        List<String> problems = new ArrayList<>();

        Set<String> writes = writeFunctions(probes);
        Long writeAfter = null;
        String writeBy = null;
        String writeError = null;
        List<Operation> clientWrites = history.operations().stream()
                .filter(o -> o.process() >= 0 && o.process() < HARNESS_PROCESSES && writes.contains(o.f())
                        && o.invokeIndex() > heal.get().index())
                .toList();
        Optional<Operation> clientWrite = clientWrites.stream().filter(Operation::isOk)
                .min(java.util.Comparator.comparingLong(Operation::completeIndex));
        if (clientWrite.isPresent()) {
            writeAfter = millisAfter(healTime, clientWrite.get().completeTime());
            writeBy = "client process " + clientWrite.get().process();
        }
        Optional<Operation> probeWrite = probes.stream().filter(o -> WRITE.equals(o.f())).findFirst();
        if (probeWrite.isPresent()) {
            Operation w = probeWrite.get();
            if (w.isOk()) {
                long after = millisAfter(healTime, w.completeTime());
                if (writeAfter == null || after < writeAfter) {
                    writeAfter = after;
                    writeBy = "probe";
                }
            } else {
                writeError = w.error() == null ? "no answer" : w.error();
            }
        }
        if (writeAfter == null && probeWrite.isPresent()) {
            problems.add("no write was acknowledged within " + seconds(bound) + " of the final heal ("
                    + writeError + ")");
        } else if (writeAfter != null && writeAfter > bound) {
            problems.add("the first write after the final heal was acknowledged " + seconds(writeAfter)
                    + " after it (bound " + seconds(bound) + "; by " + writeBy + ")");
        }

        List<RecoveryReport.ServerRecovery> servers = new ArrayList<>();
        for (Operation s : probes.stream().filter(o -> SERVE.equals(o.f())).toList()) {
            Map<?, ?> out = s.output() instanceof Map<?, ?> m ? m : Map.of();
            String node = s.key() != null ? s.key() : Values.stringField(out, "node");
            String state = Values.stringField(out, "state");
            String log = Values.stringField(out, "log");
            if (s.isOk()) {
                long after = millisAfter(healTime, s.completeTime());
                servers.add(new RecoveryReport.ServerRecovery(node, after <= bound, after, state, ""));
                if (after > bound) {
                    problems.add(node + " served only " + seconds(after) + " after the final heal (bound "
                            + seconds(bound) + ")");
                }
            } else {
                servers.add(new RecoveryReport.ServerRecovery(node, false, null, state, log == null ? "" : log));
                problems.add(node + " did not serve within " + seconds(bound) + " of the final heal (last seen: "
                        + state + ")");
            }
        }
        RecoveryReport report = new RecoveryReport(bound, writeAfter, writeBy, writeError, servers, problems);
        if (!problems.isEmpty()) {
            return CheckResult.of(name(), Validity.INVALID, "the ensemble did not recover: "
                    + String.join("; ", problems), report);
        }
        long slowest = servers.stream().mapToLong(s -> s.afterMillis() == null ? 0 : s.afterMillis()).max()
                .orElse(0);
        String served = servers.isEmpty() ? "" : "every server served within " + seconds(slowest) + " (bound "
                + seconds(bound) + ")";
        if (writeAfter == null) {
            // No probe write and no client's write acknowledged: whether the ensemble takes writes again was not
            // tested, whatever else came through (reads, events).
            return CheckResult.of(name(), Validity.UNKNOWN, "no write was acknowledged after the final heal and "
                    + "the harness probed none (" + (clientWrites.isEmpty() ? "no client write was made after it"
                    : "client writes after it: " + counts(clientWrites)) + "; writes: "
                    + String.join(", ", new java.util.TreeSet<>(writes)) + "): whether writes recover was not tested"
                    + (served.isEmpty() ? "" : "; " + served), report);
        }
        return CheckResult.of(name(), Validity.VALID, "writes acknowledged " + seconds(writeAfter)
                + " after the final heal" + (served.isEmpty() ? " (bound " + seconds(bound) + ")" : ", " + served),
                report);
    }

    /** The write functions the probes list ({@link #WRITES}), else {@link #KNOWN_WRITES}. */
    private static Set<String> writeFunctions(List<Operation> probes) {
        for (Operation p : probes) {
            if (p.input() instanceof Map<?, ?> in && in.get(WRITES) instanceof List<?> fs && !fs.isEmpty()) {
                Set<String> writes = new java.util.HashSet<>();
                for (Object f : fs) {
                    if (!(f instanceof String name)) {
                        throw new io.zkchaos.checkers.history.MalformedHistoryException("a recovery probe's "
                                + WRITES + " lists a function that is not a string: " + f + " (process "
                                + p.process() + ", index " + p.invokeIndex() + ")", p.invokeIndex());
                    }
                    writes.add(name);
                }
                return Set.copyOf(writes);
            }
        }
        return KNOWN_WRITES;
    }

    /** {@code 2 fail / 1 info}: how the operations ended. */
    private static String counts(List<Operation> ops) {
        long ok = ops.stream().filter(Operation::isOk).count();
        long info = ops.stream().filter(Operation::isInfo).count();
        return ok + " ok / " + (ops.size() - ok - info) + " fail / " + info + " info";
    }

    /** The last completed nemesis heal. */
    private static Optional<Op> finalHeal(History history) {
        Op last = null;
        for (Op op : history.nemesisOps()) {
            if (op.type() == OpType.INFO && "heal".equals(op.f())) {
                last = op;
            }
        }
        return Optional.ofNullable(last);
    }

    private static long boundMillis(Operation probe) {
        Map<?, ?> in = Values.map(probe.input(), "a recovery probe's invoke value", probe);
        return Values.longField(in, "boundMs", "a recovery probe's invoke value", probe);
    }

    /** Milliseconds from {@code from} to {@code to} (ns since the start), 0 when a time is unknown. */
    private static long millisAfter(long from, long to) {
        return from < 0 || to < 0 ? 0 : Math.max(0, (to - from) / 1_000_000);
    }

    private static String seconds(long ms) {
        return String.format(java.util.Locale.ROOT, "%.1f s", ms / 1000.0);
    }
}
