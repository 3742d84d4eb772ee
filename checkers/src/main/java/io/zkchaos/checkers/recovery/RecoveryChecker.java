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
 * A client's own acknowledged write after the final heal counts as the ensemble acknowledging writes (a client
 * operation whose function is not a read: {@code read}, {@code sync-read}, {@code read-tree}).
 *
 * <h2>Verdict</h2>
 * Invalid when a server did not serve, or served later than the bound after the final heal, or when no write was
 * acknowledged within the bound (the probe failed, or the first acknowledgement came later). Unknown when the history
 * has no final heal or no probe (nothing to judge), or when the final heal itself failed (its completion carries an
 * {@code error}: the harness left a fault in place, so a server that stays down is the harness's doing). Else valid,
 * with the times.
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
    private static final Set<String> READS = Set.of("read", "sync-read", "read-tree");

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

        Long writeAfter = null;
        String writeBy = null;
        String writeError = null;
        Optional<Operation> clientWrite = history.operations().stream()
                .filter(o -> o.process() >= 0 && o.process() < HARNESS_PROCESSES && o.isOk() && !READS.contains(o.f())
                        && o.invokeIndex() > heal.get().index())
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
        return CheckResult.of(name(), Validity.VALID, (writeAfter == null ? "no write probed"
                : "writes acknowledged " + seconds(writeAfter) + " after the final heal")
                + (servers.isEmpty() ? "" : ", every server served within " + seconds(slowest)) + " (bound "
                + seconds(bound) + ")", report);
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
