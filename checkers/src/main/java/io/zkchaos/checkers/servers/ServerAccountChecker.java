package io.zkchaos.checkers.servers;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.servers.LogRule.Verdict;
import io.zkchaos.checkers.servers.ServerReport.Crash;
import io.zkchaos.checkers.servers.ServerReport.CrashLoop;
import io.zkchaos.checkers.servers.ServerReport.NodeRead;
import io.zkchaos.checkers.servers.ServerReport.Occurrence;
import io.zkchaos.checkers.servers.ServerReport.RejoinLoop;
import io.zkchaos.checkers.servers.ServerReport.SignatureCount;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The servers' own account as a verdict ({@code server}): crashes and crash loops from the harness's server events,
 * programming errors and rejoin loops from the servers' logs, each excused only by a fault that acted on that server
 * then and declares it ({@link FaultWindow#excuses}).
 *
 * <h2>What is a finding</h2>
 * <ul>
 *   <li>{@code crash}: a server process that ended by itself ({@link ServerEvent#endedByItself()}), unless a fault
 *       excuses {@link ServerBehaviour#EXIT} on it then;</li>
 *   <li>{@code crash-loop}: such an end within {@link Settings#crashLoopWindow()} of the server's last restart
 *       (a start by the nemesis, its final heal among them: the harness's first start of the ensemble is no
 *       restart, so a server that dies some seconds into the run has crashed once, not looped), unless one fault excuses EXIT on it both at that start and at that end (so a server that keeps crashing after
 *       the fault was repaired and its grace is over is never excused);</li>
 *   <li>{@code error}: a signature whose verdict by the {@link LogRules} is {@link Verdict#ERROR};</li>
 *   <li>{@code rejoin-loop}: a server that logged {@link Settings#rejoinCount()} sync starts within
 *       {@link Settings#rejoinWindow()} without a serving line in between, unless a fault excuses
 *       {@link ServerBehaviour#REJOIN} on it when the K-th came. Not judged when no server logged a serving line at
 *       all (the report says so): a release whose lines the rules do not know would make every sync look like one.</li>
 * </ul>
 *
 * <h2>Verdict</h2>
 * INVALID on any unexcused finding above; else UNKNOWN when no server's log could be read; else VALID. Its summary
 * says what was judged. A checker that throws gives UNKNOWN with the error, never a crash of the caller.
 *
 * <p>Pure and safe to call from several threads.
 */
public final class ServerAccountChecker {

    /** The checker's name, as the CLI takes it; finding kinds are {@code server:crash} and so on. */
    public static final String NAME = "server";
    private static final int LINES_KEPT = 10;

    private final Settings settings;

    public ServerAccountChecker(Settings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    public String name() {
        return NAME;
    }

    /**
     * How the checker judges.
     *
     * @param rejoinCount     K: sync starts without serving in between that make a rejoin loop (at least 2)
     * @param rejoinWindow    the window those K must fall in
     * @param crashLoopWindow an end by itself this soon after a start is a crash loop
     * @param rules           what log lines mean
     */
    public record Settings(int rejoinCount, Duration rejoinWindow, Duration crashLoopWindow, LogRules rules) {

        /** K = 3 syncs within 60 s; a crash within 30 s of a start is a loop; the built-in rules. */
        public static Settings defaults() {
            return new Settings(3, Duration.ofSeconds(60), Duration.ofSeconds(30), LogRules.builtIn());
        }

        public Settings {
            Objects.requireNonNull(rejoinWindow, "rejoinWindow");
            Objects.requireNonNull(crashLoopWindow, "crashLoopWindow");
            Objects.requireNonNull(rules, "rules");
            if (rejoinCount < 2) {
                throw new IllegalArgumentException("rejoinCount must be at least 2, got " + rejoinCount);
            }
            if (rejoinWindow.isNegative() || rejoinWindow.isZero() || crashLoopWindow.isNegative()
                    || crashLoopWindow.isZero()) {
                throw new IllegalArgumentException("the rejoin window (" + rejoinWindow + ") and the crash-loop "
                        + "window (" + crashLoopWindow + ") must be positive");
            }
        }

        /** The same with {@code rules}. */
        public Settings withRules(LogRules rules) {
            return new Settings(rejoinCount, rejoinWindow, crashLoopWindow, rules);
        }
    }

    /** Judges one run's account, as the class comment says. */
    public CheckResult check(ServerAccount account) {
        try {
            return judge(account);
        } catch (RuntimeException e) {
            return CheckResult.crashed(NAME, e);
        }
    }

    private CheckResult judge(ServerAccount account) {
        List<ServerLog> logs = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (String node : account.nodes()) {
            List<String> lines = account.logs().get(node);
            if (lines == null) {
                missing.add(node + ": no " + ServerAccount.LOG_FILE);
            } else {
                logs.add(ServerLog.parse(node, lines));
            }
        }
        ServerClock clock = clockOf(account, logs);

        Map<String, Group> groups = new LinkedHashMap<>();
        List<NodeRead> read = new ArrayList<>();
        Map<String, List<State>> states = new LinkedHashMap<>();
        for (ServerLog log : logs) {
            long[] times = clock.historyNanos(log);
            int syncs = 0;
            int servings = 0;
            List<State> nodeStates = new ArrayList<>();
            for (int i = 0; i < log.entries().size(); i++) {
                LogLine e = log.entries().get(i);
                Optional<LogRules.Judged> judged = settings.rules().judge(e);
                if (judged.isEmpty()) {
                    continue;
                }
                LogRules.Judged j = judged.get();
                Occurrence at = new Occurrence(log.node(), times[i], e.lineNumber(), e.text());
                if (j.verdict().marksState()) {
                    nodeStates.add(new State(j.verdict(), at));
                    if (j.verdict() == Verdict.SYNC) {
                        syncs++;
                    } else {
                        servings++;
                    }
                    continue;
                }
                String key = j.signature().key() + "\u0000" + j.verdict() + "\u0000"
                        + (j.rule() == null ? "" : j.rule().source());
                groups.computeIfAbsent(key, k -> new Group(j)).add(at, sample(e, j));
            }
            states.put(log.node(), nodeStates);
            int n = times.length;
            read.add(new NodeRead(log.node(), log.lineCount(), n, log.starts().size(), n == 0 ? null : times[0],
                    n == 0 ? null : times[n - 1], syncs, servings));
        }

        List<SignatureCount> signatures = groups.values().stream().map(Group::done)
                .sorted(Comparator.comparingInt((SignatureCount s) -> severity(s.verdict()))
                        .thenComparing(Comparator.comparingInt(SignatureCount::count).reversed()))
                .toList();
        boolean rejoinJudged = read.stream().anyMatch(r -> r.servings() > 0);
        List<RejoinLoop> rejoins = new ArrayList<>();
        if (rejoinJudged) {
            states.forEach((node, s) -> rejoins.addAll(rejoinLoops(node, s, account)));
        }
        List<Crash> crashes = new ArrayList<>();
        List<CrashLoop> crashLoops = new ArrayList<>();
        crashes(account, crashes, crashLoops);

        List<String> problems = new ArrayList<>();
        for (CrashLoop c : crashLoops) {
            if (c.excusedBy() == null) {
                problems.add(c.node() + " crashed " + seconds(c.exitedNanos() - c.startedNanos())
                        + " after it was started at " + seconds(c.startedNanos()) + " (a crash loop)");
            }
        }
        for (Crash c : crashes) {
            if (c.excusedBy() == null && crashLoops.stream().noneMatch(l -> l.node().equals(c.node())
                    && l.exitedNanos() == c.timeNanos())) {
                problems.add(c.node() + " exited by itself at " + seconds(c.timeNanos()) + exitText(c.exitCode(),
                        c.signal()) + (c.nemesis() == null ? "" : " while " + c.nemesis()));
            }
        }
        for (SignatureCount s : signatures) {
            if (s.verdict() == Verdict.ERROR) {
                problems.add("programming error " + s.signature() + " logged " + s.count() + "× by "
                        + String.join(", ", s.nodes()) + ", first by " + s.first().node() + " at "
                        + seconds(s.first().timeNanos()));
            }
        }
        for (RejoinLoop r : rejoins) {
            if (r.excusedBy() == null) {
                problems.add(r.node() + " started syncing with a leader " + r.syncs() + " times from "
                        + seconds(r.firstNanos()) + " to " + seconds(r.lastNanos()) + " without serving between");
            }
        }

        ServerReport report = new ServerReport(clock.basis(), read, missing, signatures, crashes, crashLoops,
                rejoins, rejoinJudged, settings.rejoinCount(), settings.rejoinWindow().toNanos(),
                settings.crashLoopWindow().toNanos(), problems);
        String judged = summary(report, account.events().isEmpty());
        if (!problems.isEmpty()) {
            return CheckResult.of(NAME, Validity.INVALID, String.join("; ", problems) + " (judged: " + judged + ")",
                    report);
        }
        if (logs.isEmpty()) {
            return CheckResult.of(NAME, Validity.UNKNOWN, "no server log could be read ("
                    + (missing.isEmpty() ? "no servers" : String.join("; ", missing)) + "); " + judged, report);
        }
        return CheckResult.of(NAME, Validity.VALID, judged, report);
    }

    /** The clock from the events, else from the first start marker, else from the first line (said so). */
    private static ServerClock clockOf(ServerAccount account, List<ServerLog> logs) {
        if (!account.events().isEmpty()) {
            return ServerClock.fromEvents(account.events());
        }
        Optional<Instant> first = logs.stream().flatMap(l -> l.starts().stream()).min(Comparator.naturalOrder());
        if (first.isPresent()) {
            return ServerClock.fromFirstStart(first.get());
        }
        long firstLine = logs.stream().flatMap(l -> l.entries().stream()).mapToLong(LogLine::wallMillis).min()
                .orElse(0);
        return ServerClock.fromFirstStart(Instant.ofEpochMilli(firstLine));
    }

    /** A state line: a sync start or serving. */
    private record State(Verdict kind, Occurrence at) {
    }

    /** Runs of K syncs within the window without serving between, in a server's log order. */
    private List<RejoinLoop> rejoinLoops(String node, List<State> states, ServerAccount account) {
        int k = settings.rejoinCount();
        long window = settings.rejoinWindow().toNanos();
        List<RejoinLoop> loops = new ArrayList<>();
        List<Occurrence> pending = new ArrayList<>();
        Long found = null;
        for (State s : states) {
            if (s.kind() == Verdict.SERVING) {
                if (found != null) {
                    loops.add(loop(node, pending, found, account));
                }
                pending.clear();
                found = null;
                continue;
            }
            pending.add(s.at());
            int n = pending.size();
            if (found == null && n >= k && s.at().timeNanos() - pending.get(n - k).timeNanos() <= window) {
                found = s.at().timeNanos();
                pending.subList(0, n - k).clear(); // the loop starts with the first of its K
            }
        }
        if (found != null) {
            loops.add(loop(node, pending, found, account));
        }
        return loops;
    }

    private static RejoinLoop loop(String node, List<Occurrence> syncs, long found, ServerAccount account) {
        String excuse = excuse(account, ServerBehaviour.REJOIN, node, found, null);
        return new RejoinLoop(node, syncs.size(), syncs.get(0).timeNanos(), found,
                syncs.get(syncs.size() - 1).timeNanos(), syncs.subList(0, Math.min(LINES_KEPT, syncs.size())),
                excuse);
    }

    /** Crashes and crash loops from the events, in time order. */
    private void crashes(ServerAccount account, List<Crash> crashes, List<CrashLoop> loops) {
        Map<String, Long> started = new HashMap<>();
        List<ServerEvent> events = account.events().stream()
                .sorted(Comparator.comparingLong(ServerEvent::timeNanos)).toList();
        for (ServerEvent e : events) {
            if (e.kind() == ServerEvent.Kind.STARTED) {
                if (ServerEvent.BY_NEMESIS.equals(e.by())) {
                    started.put(e.node(), e.timeNanos()); // started again: a restart or the final heal
                } else {
                    started.remove(e.node()); // the harness's own start of the ensemble
                }
            } else if (e.endedByItself()) {
                crashes.add(new Crash(e.node(), e.timeNanos(), e.exitCode(), e.signal(), e.lastLines(), e.nemesis(),
                        excuse(account, ServerBehaviour.EXIT, e.node(), e.timeNanos(), null)));
                Long start = started.get(e.node());
                if (start != null && e.timeNanos() - start <= settings.crashLoopWindow().toNanos()) {
                    loops.add(new CrashLoop(e.node(), start, e.timeNanos(), e.exitCode(), e.signal(),
                            excuse(account, ServerBehaviour.EXIT, e.node(), e.timeNanos(), start)));
                }
            }
        }
    }

    /**
     * The first fault that excuses {@code behaviour} of {@code node} at {@code time} (and at {@code alsoAt}, when
     * given), described for a person; null when none does.
     */
    private static String excuse(ServerAccount account, ServerBehaviour behaviour, String node, long time,
                                 Long alsoAt) {
        for (FaultWindow f : account.faults()) {
            if (f.excuses(behaviour, node, time) && (alsoAt == null || f.excuses(behaviour, node, alsoAt))) {
                return f.describe() + " (" + seconds(f.startNanos()) + " to " + (f.endNanos() == Long.MAX_VALUE
                        ? "the history's end" : seconds(f.endNanos())) + ", excuses " + behaviour.name()
                        .toLowerCase(Locale.ROOT) + " for " + seconds(f.graceNanos()) + " after)";
            }
        }
        return null;
    }

    /** The exception line of the first occurrence, else its message. */
    private static String sample(LogLine e, LogRules.Judged j) {
        if (j.chain().isEmpty()) {
            return e.message();
        }
        Thrown t = j.chain().get(0);
        return t.className() + (t.message().isEmpty() ? "" : ": " + t.message());
    }

    /** Errors first, then excused, other, expected. */
    private static int severity(Verdict v) {
        return switch (v) {
            case ERROR -> 0;
            case EXCUSED -> 1;
            case OTHER -> 2;
            default -> 3;
        };
    }

    /** One signature's entries as they are counted. */
    private static final class Group {
        private final LogRules.Judged judged;
        private final Set<String> nodes = new LinkedHashSet<>();
        private Occurrence first;
        private String sample;
        private int count;

        Group(LogRules.Judged judged) {
            this.judged = judged;
        }

        void add(Occurrence at, String sampleText) {
            count++;
            nodes.add(at.node());
            if (first == null || at.timeNanos() < first.timeNanos()) {
                first = at;
                sample = sampleText;
            }
        }

        SignatureCount done() {
            Signature s = judged.signature();
            LogRule r = judged.rule();
            String why = r == null ? "no rule names " + s.root() + ": counted, not a finding" : r.why();
            return new SignatureCount(s.key(), s.outer(), s.root(), s.frames(), judged.verdict(), why,
                    r == null ? null : r.source(), count, nodes.stream().sorted().toList(), first, sample);
        }
    }

    private String summary(ServerReport r, boolean noEvents) {
        long lines = r.nodes().stream().mapToLong(NodeRead::lines).sum();
        StringBuilder s = new StringBuilder();
        s.append(count(r.nodes().size(), "log")).append(", ").append(String.format(Locale.ROOT, "%,d", lines))
                .append(" lines");
        if (!r.missingLogs().isEmpty()) {
            s.append(" (missing: ").append(String.join("; ", r.missingLogs())).append(')');
        }
        s.append("; ").append(count(r.signatures().size(), "exception signature")).append(": ")
                .append(count(countOf(r, Verdict.ERROR), "error")).append(", ")
                .append(countOf(r, Verdict.EXPECTED)).append(" expected, ");
        int excused = countOf(r, Verdict.EXCUSED);
        if (excused > 0) {
            s.append(excused).append(" excused, ");
        }
        s.append(countOf(r, Verdict.OTHER)).append(" other; ");
        if (noEvents) {
            s.append("crashes not judged (no server events)");
        } else {
            long excusedCrashes = r.crashes().stream().filter(c -> c.excusedBy() != null).count();
            s.append(count(r.crashes().size(), "crash", "crashes"));
            if (excusedCrashes > 0) {
                s.append(" (").append(excusedCrashes).append(" excused)");
            }
            if (!r.crashLoops().isEmpty()) {
                s.append(", ").append(count(r.crashLoops().size(), "crash loop"));
            }
        }
        int syncs = r.nodes().stream().mapToInt(NodeRead::syncs).sum();
        s.append("; syncs ").append(syncs).append(", ");
        if (!r.rejoinJudged()) {
            s.append("rejoin loops not judged (no server logged a line that says it serves)");
        } else if (r.rejoinLoops().isEmpty()) {
            s.append("no rejoin loop");
        } else {
            long excusedLoops = r.rejoinLoops().stream().filter(l -> l.excusedBy() != null).count();
            s.append(count(r.rejoinLoops().size(), "rejoin loop"));
            if (excusedLoops > 0) {
                s.append(" (").append(excusedLoops).append(" excused)");
            }
        }
        return s.toString();
    }

    private static int countOf(ServerReport r, Verdict v) {
        return (int) r.signatures().stream().filter(s -> s.verdict() == v).count();
    }

    private static String count(long n, String word) {
        return count(n, word, word + "s");
    }

    private static String count(long n, String one, String many) {
        return n + " " + (n == 1 ? one : many);
    }

    private static String exitText(Integer code, String signal) {
        if (signal != null) {
            return " (signal " + signal + ")";
        }
        return code == null ? "" : " (exit code " + code + ")";
    }

    static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.2f s", nanos / 1e9);
    }
}
