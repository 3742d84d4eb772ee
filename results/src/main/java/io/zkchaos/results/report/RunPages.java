package io.zkchaos.results.report;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.checkers.history.Operation;
import io.zkchaos.checkers.leader.LeaderInterval;
import io.zkchaos.checkers.leader.LeaderOverlap;
import io.zkchaos.checkers.leader.SingleLeaderReport;
import io.zkchaos.results.ServerObservation;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Builds a {@link RunPage} from a run directory's files: the checkers' cards, the fault windows, and the data the
 * page's script draws ({@link PageData}: operations as columns, faults, the servers' modes, the election's leaders,
 * the entries the findings name).
 *
 * <p>The axis is the history's clock in µs when every entry has a time, else the entry number (histories imported
 * from elsewhere may have no times); the page says which.
 */
final class RunPages {

    /** Characters of a value kept in the page's data; the rest is left to history.jsonl (and counted). */
    static final int MAX_VALUE_CHARS = 160;
    /** Entries marked on the timeline at most. */
    static final int MAX_MARKS = 5_000;

    private RunPages() {
    }

    static RunPage build(RunFiles files) {
        History history = files.history();
        HistoryIndex index = new HistoryIndex(history);
        List<CheckerCard> cards = Cards.of(files.results(), index);
        boolean hasTimes = !history.ops().isEmpty() && history.ops().stream().allMatch(op -> op.time() >= 0);
        Axis axis = new Axis(hasTimes);
        long end = history.ops().isEmpty() ? 0 : axis.of(history.ops().get(history.ops().size() - 1));
        if (hasTimes) {
            // The servers were watched until the cluster stopped, after the last entry: the axis shows that too.
            end = Math.max(end, files.cluster().stream().mapToLong(o -> o.time() / 1000).max().orElse(0));
            // So were the server processes, until the harness stopped them.
            end = Math.max(end, files.serverEvents().stream().mapToLong(e -> e.timeNanos() / 1000).max().orElse(0));
        }
        List<FaultWindow> faults = faults(history, axis, end);
        List<String> notes = new ArrayList<>(files.notes());
        if (!hasTimes) {
            notes.add("This history has no times: the horizontal axis is the entry number, and latency, "
                    + "throughput and the servers' view cannot be drawn.");
        }

        Columns columns = columns(history, axis);
        int clipped = columns.clipped();
        PageData data = new PageData(hasTimes, end, columns.processes(), columns.functions(), columns.keys(),
                columns.operations(), nemesisEntries(history, axis), faults,
                hasTimes ? servers(files.cluster(), end) : null,
                hasTimes ? ServerMarks.of(cards, files.serverEvents()) : null, leaders(files.results(), axis),
                marks(cards), MAX_VALUE_CHARS, clipped);
        if (clipped > 0) {
            notes.add(Fmt.count(clipped) + " value(s) longer than " + MAX_VALUE_CHARS + " characters are cut short "
                    + "on this page; history.jsonl has them whole.");
        }

        ExercisedView exercised = files.evidence().map(ExercisedView::of).orElse(null);
        CheckerCard root = cards.isEmpty() ? null : cards.get(0);
        return new RunPage(title(files), root == null ? "unchecked" : root.verdict(),
                root == null ? "NOT CHECKED" : root.word(),
                root == null ? Text.plain("No results.json: the history was recorded but never checked.")
                        : root.summary(),
                facts(files, history, faults, exercised, hasTimes), cards, ServersSection.of(files, cards, hasTimes),
                faults, exercised, notes,
                files.config() == null ? List.of() : ConfigView.rows(files.config()),
                files.directory().path().toString(), ScriptJson.markup(data));
    }

    /** Positions on the page's axis. */
    private record Axis(boolean hasTimes) {
        long of(Op op) {
            return hasTimes ? op.time() / 1000 : op.index();
        }

        long of(long nanos, long entry) {
            return hasTimes ? (nanos < 0 ? -1 : nanos / 1000) : entry;
        }
    }

    private static String title(RunFiles files) {
        return files.config() != null ? files.config().title()
                : String.valueOf(files.directory().path().getFileName());
    }

    private static List<CheckerCard.Fact> facts(RunFiles files, History history, List<FaultWindow> faults,
                                                ExercisedView exercised, boolean hasTimes) {
        List<CheckerCard.Fact> facts = new ArrayList<>();
        // the clients' own: not the harness's probes and final reads (processes from HARNESS_PROCESS_BASE up)
        List<Operation> ops = history.operations().stream()
                .filter(o -> o.process() < History.HARNESS_PROCESS_BASE).toList();
        long ok = ops.stream().filter(Operation::isOk).count();
        long fail = ops.stream().filter(Operation::isFail).count();
        long info = ops.size() - ok - fail;
        facts.add(new CheckerCard.Fact("client operations", Fmt.count(ops.size()) + " (" + Fmt.count(ok) + " ok, "
                + Fmt.count(fail) + " fail, " + Fmt.count(info) + " info)"));
        long done = faults.stream().filter(f -> !f.failed()).count();
        facts.add(new CheckerCard.Fact("faults", Fmt.count(done)
                + (done < faults.size() ? " (" + (faults.size() - done) + " could not act)" : "")));
        if (exercised != null) {
            facts.add(new CheckerCard.Fact("exercised", exercised.fact()));
        }
        if (hasTimes && !history.ops().isEmpty()) {
            facts.add(new CheckerCard.Fact("history span",
                    Fmt.span(history.ops().get(history.ops().size() - 1).time())));
        }
        facts.add(new CheckerCard.Fact("processes",
                Fmt.count(ops.stream().mapToInt(Operation::process).distinct().count())));
        String leaders = leaderSequence(files.cluster());
        if (!leaders.isEmpty()) {
            facts.add(new CheckerCard.Fact("ZooKeeper leaders", leaders));
        }
        if (files.config() != null) {
            facts.addAll(ConfigView.facts(files.config()));
        }
        return facts;
    }

    /** Who the servers said led, in order: {@code n3 (epoch 1) → n2 (epoch 2) at 3.796 s → ...}. */
    static String leaderSequence(List<ServerObservation> observations) {
        List<String> steps = new ArrayList<>();
        String last = null;
        for (ServerObservation o : observations.stream().sorted(Comparator.comparingLong(ServerObservation::time))
                .toList()) {
            if (!o.mode().equals("leader") && !o.mode().equals("standalone")) {
                continue;
            }
            String who = o.node() + " (epoch " + o.epoch() + ")";
            if (!who.equals(last)) {
                steps.add(steps.isEmpty() ? who : who + " at " + Fmt.at(o.time()));
                last = who;
            }
        }
        return String.join(" → ", steps);
    }

    /** The client operations as the page's columns, with the processes, functions and keys they index. */
    private record Columns(List<Integer> processes, List<String> functions, List<String> keys,
                           PageData.Operations operations, int clipped) {
    }

    /** Client operations as columns (compact for 100,000 operations), counting the values clipped. */
    private static Columns columns(History history, Axis axis) {
        List<Operation> ops = history.operations();
        int n = ops.size();
        Map<String, Integer> functions = new LinkedHashMap<>();
        Map<String, Integer> keys = new LinkedHashMap<>();
        TreeSet<Integer> processes = new TreeSet<>();
        PageData.Operations cols = new PageData.Operations(new int[n], new int[n], new int[n], new long[n],
                new long[n], new int[n], new long[n], new long[n], new String[n], new String[n], new String[n]);
        int clipped = 0;
        for (int x = 0; x < n; x++) {
            Operation op = ops.get(x);
            cols.process()[x] = op.process();
            processes.add(op.process());
            cols.function()[x] = functions.computeIfAbsent(op.f(), f -> functions.size());
            cols.key()[x] = op.key() == null ? -1 : keys.computeIfAbsent(op.key(), k -> keys.size());
            cols.start()[x] = axis.of(op.invokeTime(), op.invokeIndex());
            cols.end()[x] = op.completeIndex() < 0 ? -1 : axis.of(op.completeTime(), op.completeIndex());
            cols.outcome()[x] = op.completeIndex() < 0 ? 3 : switch (op.outcome()) {
                case OK -> 0;
                case FAIL -> 1;
                case INFO -> 2;
            };
            cols.invokeEntry()[x] = op.invokeIndex();
            cols.completeEntry()[x] = op.completeIndex();
            String in = Fmt.value(op.input());
            String out = op.completeIndex() < 0 || op.isInfo() ? null : Fmt.value(op.output());
            if (in.length() > MAX_VALUE_CHARS) {
                clipped++;
            }
            if (out != null && out.length() > MAX_VALUE_CHARS) {
                clipped++;
            }
            cols.input()[x] = Fmt.clip(in, MAX_VALUE_CHARS);
            cols.output()[x] = Fmt.clip(out, MAX_VALUE_CHARS);
            cols.error()[x] = op.error();
        }
        return new Columns(List.copyOf(processes), List.copyOf(functions.keySet()), List.copyOf(keys.keySet()),
                cols, clipped);
    }

    private static List<PageData.NemesisEntry> nemesisEntries(History history, Axis axis) {
        return history.nemesisOps().stream().map(op -> new PageData.NemesisEntry(op.index(), op.type().wireName(),
                op.f(), axis.of(op), Fmt.clip(Fmt.value(op.value()), 2_000))).toList();
    }

    /**
     * Fault windows: each fault from its invoke to the completion of the heal that ended it: the heal whose invoke
     * names it (faults may overlap, {@code --compose}), else the next heal ({@code heal}, or Jepsen's {@code stop}),
     * which ends every fault in force (the final heal, and histories that do not name what a heal ends).
     */
    static List<FaultWindow> faults(History history, Axis axis, long end) {
        List<FaultWindow> done = new ArrayList<>();
        List<Open> open = new ArrayList<>();
        Op invoke = null;
        List<Op> nemesis = history.nemesisOps();
        for (int n = 0; n < nemesis.size(); n++) {
            Op op = nemesis.get(n);
            // Jepsen records a nemesis action as two info entries; the first of a pair stands for the invoke.
            boolean jepsenStart = op.type() != OpType.INVOKE && invoke == null && n + 1 < nemesis.size()
                    && nemesis.get(n + 1).type() != OpType.INVOKE && nemesis.get(n + 1).f().equals(op.f());
            if (op.type() == OpType.INVOKE || jepsenStart) {
                invoke = op;
                continue;
            }
            Op start = invoke != null && invoke.f().equals(op.f()) ? invoke : op;
            invoke = null;
            if (isHeal(op.f())) {
                Open named = start.value() instanceof String f ? open.stream().filter(w -> w.f().equals(f))
                        .findFirst().orElse(null) : null;
                for (Open w : named == null ? open : List.of(named)) {
                    done.add(w.close(axis.of(op), true, op.index()));
                }
                if (named == null) {
                    open.clear();
                } else {
                    open.remove(named);
                }
                continue;
            }
            Object error = op.value() instanceof Map<?, ?> m ? m.get("error") : null;
            if (error != null) {
                done.add(new Open(op.f(), "could not act: " + error, "", List.of(), true, axis.of(start),
                        start.index(), op.index(), start.time()).close(axis.of(op), true, -1));
                continue;
            }
            open.add(new Open(op.f(), describe(op), cuts(op.value()), nodes(op.value()), false, axis.of(start),
                    start.index(), op.index(), start.time()));
        }
        for (Open w : open) {
            done.add(w.close(end, false, -1));
        }
        done.sort(Comparator.comparingLong(FaultWindow::start));
        return done;
    }

    private record Open(String f, String label, String cuts, List<String> nodes, boolean failed, long s,
                        long invokeEntry, long infoEntry, long startNanos) {
        FaultWindow close(long e, boolean healed, long healEntry) {
            return new FaultWindow(f, label, cuts, nodes, failed, s, e, healed, invokeEntry, infoEntry, healEntry,
                    Fmt.at(startNanos), startNanos < 0 ? "?" : Fmt.span(Math.max(0, e - s) * 1000));
        }
    }

    private static boolean isHeal(String f) {
        return f.equals("heal") || f.equals("stop");
    }

    private static String describe(Op op) {
        if (op.value() instanceof Map<?, ?> m && m.get("description") != null) {
            return String.valueOf(m.get("description"));
        }
        return op.value() == null || op.value().equals(op.f()) ? op.f() : op.f() + " " + Fmt.value(op.value());
    }

    @SuppressWarnings("unchecked")
    private static List<String> nodes(Object value) {
        if (value instanceof Map<?, ?> m && m.get("nodes") instanceof List<?> l) {
            return l.stream().map(String::valueOf).toList();
        }
        return List.of();
    }

    /** The links a partition cut, from its grudge: {@code n1–n3} both ways, {@code n1→n3} one way. */
    static String cuts(Object value) {
        if (!(value instanceof Map<?, ?> m) || !(m.get("grudge") instanceof Map<?, ?> grudge)) {
            return "";
        }
        Map<String, TreeSet<String>> g = new java.util.TreeMap<>();
        grudge.forEach((node, peers) -> {
            TreeSet<String> set = new TreeSet<>();
            if (peers instanceof List<?> l) {
                l.forEach(x -> set.add(String.valueOf(x)));
            }
            g.put(String.valueOf(node), set);
        });
        List<String> cuts = new ArrayList<>();
        g.forEach((a, peers) -> {
            for (String b : peers) {
                boolean both = g.getOrDefault(b, new TreeSet<>()).contains(a);
                if (both && a.compareTo(b) < 0) {
                    cuts.add(a + "–" + b);
                } else if (!both) {
                    cuts.add(b + "→" + a + " (" + a + " does not hear " + b + ")");
                }
            }
        });
        return String.join(", ", cuts);
    }

    /** The servers' modes as spans per node, and the times when two servers said they led at once. */
    private static PageData.ServerModes servers(List<ServerObservation> observations, long end) {
        if (observations.isEmpty()) {
            return null;
        }
        Map<String, List<ServerObservation>> byNode = new java.util.TreeMap<>();
        observations.forEach(o -> byNode.computeIfAbsent(o.node(), n -> new ArrayList<>()).add(o));
        List<PageData.ModeSpan> spans = new ArrayList<>();
        List<PageData.ModeSpan> leaderSpans = new ArrayList<>();
        byNode.forEach((node, list) -> {
            list.sort(Comparator.comparingLong(ServerObservation::time));
            // A line that repeats the one before (the observer's last word at its end) only extends it.
            List<ServerObservation> changes = new ArrayList<>();
            for (ServerObservation o : list) {
                if (changes.isEmpty() || !o.sameAs(changes.get(changes.size() - 1))) {
                    changes.add(o);
                }
            }
            for (int x = 0; x < changes.size(); x++) {
                ServerObservation o = changes.get(x);
                long e = x + 1 < changes.size() ? changes.get(x + 1).time() / 1000 : end;
                PageData.ModeSpan span = new PageData.ModeSpan(node, o.mode(), o.epoch(), o.state(), o.error(),
                        o.time() / 1000, e);
                spans.add(span);
                if (o.mode().equals("leader") || o.mode().equals("standalone")) {
                    leaderSpans.add(span);
                }
            }
        });
        List<PageData.ModeOverlap> overlaps = new ArrayList<>();
        for (int a = 0; a < leaderSpans.size(); a++) {
            for (int b = a + 1; b < leaderSpans.size(); b++) {
                PageData.ModeSpan x = leaderSpans.get(a);
                PageData.ModeSpan y = leaderSpans.get(b);
                long s = Math.max(x.start(), y.start());
                long e = Math.min(x.end(), y.end());
                if (s < e && !x.node().equals(y.node())) {
                    overlaps.add(new PageData.ModeOverlap(s, e, List.of(x.node() + " (epoch " + x.epoch() + ")",
                            y.node() + " (epoch " + y.epoch() + ")")));
                }
            }
        }
        return new PageData.ServerModes(List.copyOf(byNode.keySet()), spans, overlaps);
    }

    /** The election's leaderships and overlaps, as the single-leader checker computed them (results.json). */
    private static PageData.Leaderships leaders(CheckResult results, Axis axis) {
        SingleLeaderReport d = findLeaders(results);
        if (d == null) {
            return null;
        }
        List<PageData.Leadership> intervals = d.intervals().stream().map(iv -> new PageData.Leadership(iv.node(),
                iv.process(), iv.token(), axis.of(iv.startNanos(), iv.startIndex()),
                axis.of(iv.endNanos(), iv.endIndex()), iv.endReason(), iv.startIndex())).toList();
        List<PageData.LeaderOverlap> overlaps = new ArrayList<>();
        for (LeaderOverlap o : d.overlaps()) {
            long s = axis.of(o.startNanos(), o.startIndex());
            long len = o.lengthNanos();
            LeaderInterval stale = o.stale();
            LeaderInterval newer = o.newer();
            long e = axis.hasTimes() && len >= 0 ? s + len / 1000
                    : axis.of(Math.min(stale.endNanos(), newer.endNanos()),
                    Math.min(stale.endIndex(), newer.endIndex()));
            overlaps.add(new PageData.LeaderOverlap(s, e, stale.node() + " (token " + stale.token() + ") and "
                    + newer.node() + " (token " + newer.token() + ") both led for " + Fmt.span(len)));
        }
        return new PageData.Leaderships(intervals, overlaps);
    }

    /** The first single-leader findings in the tree, depth first, or null. */
    private static SingleLeaderReport findLeaders(CheckResult r) {
        if (r == null) {
            return null;
        }
        if (r.details() instanceof SingleLeaderReport d) {
            return d;
        }
        for (CheckResult part : r.parts()) {
            SingleLeaderReport found = findLeaders(part);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    /** Entries the findings name, by role, for the timeline to ring. */
    private static List<PageData.Mark> marks(List<CheckerCard> cards) {
        Map<Long, String> marks = new LinkedHashMap<>();
        for (CheckerCard c : cards) {
            if (c.linear() != null) {
                CheckerCard.LinearView l = c.linear();
                l.concurrent().forEach(o -> marks.put(o.invokeEntry(), "concurrent"));
                marks.put(l.failing().invokeEntry(), "failing");
            }
            c.lost().forEach(r -> marks.put(r.invokeEntry(), "lost"));
            c.unexpected().forEach(r -> marks.put(r.readEntry(), "finding"));
            c.stale().forEach(r -> marks.putIfAbsent(r.readEntry(), "stale"));
            if (!c.verdict().equals("valid")) {
                c.findings().forEach(t -> t.entries().forEach(e -> marks.putIfAbsent(e, "finding")));
            }
        }
        return marks.entrySet().stream().limit(MAX_MARKS).map(m -> new PageData.Mark(m.getKey(), m.getValue()))
                .toList();
    }
}
