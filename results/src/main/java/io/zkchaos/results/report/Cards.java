package io.zkchaos.results.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Findings;
import io.zkchaos.checkers.evidence.EvidenceReport;
import io.zkchaos.checkers.fenced.FencedReport;
import io.zkchaos.checkers.fenced.FencedViolation;
import io.zkchaos.checkers.history.Operation;
import io.zkchaos.checkers.leader.Failover;
import io.zkchaos.checkers.leader.LeaderInterval;
import io.zkchaos.checkers.leader.LeaderOverlap;
import io.zkchaos.checkers.leader.SingleLeaderReport;
import io.zkchaos.checkers.linear.Counterexample;
import io.zkchaos.checkers.linear.LinearizabilityDetails;
import io.zkchaos.checkers.linear.OpView;
import io.zkchaos.checkers.log.LogReport;
import io.zkchaos.checkers.log.LogViolation;
import io.zkchaos.checkers.multi.MultiReport;
import io.zkchaos.checkers.readmodel.ReadModelReport;
import io.zkchaos.checkers.readmodel.ReadViolation;
import io.zkchaos.checkers.readmodel.StaleRead;
import io.zkchaos.checkers.sequential.SequentialReport;
import io.zkchaos.checkers.sessions.SessionsReport;
import io.zkchaos.checkers.set.LostValue;
import io.zkchaos.checkers.set.SetReport;
import io.zkchaos.checkers.set.UnexpectedValue;
import io.zkchaos.checkers.churn.ChurnReport;
import io.zkchaos.checkers.recovery.RecoveryReport;
import io.zkchaos.checkers.servers.AvailabilityReport;
import io.zkchaos.checkers.servers.ServerReport;
import io.zkchaos.checkers.state.FinalStateReport;
import io.zkchaos.checkers.state.LeftEphemeral;
import io.zkchaos.checkers.state.TreeDifference;
import io.zkchaos.checkers.watches.WatchViolation;
import io.zkchaos.checkers.watches.WatchesReport;
import io.zkchaos.results.Json;
import io.zkchaos.results.Verdicts;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;

/**
 * Turns a verdict read back from {@code results.json} into {@link CheckerCard}s, one per checker, depth first. Each
 * card is drawn by the type of its checker's {@link Findings}, not by the checker's name, so a checker composed under
 * another name renders the same; details saved without a kind ({@link Findings.Untyped}) get a plain card.
 */
final class Cards {

    /** Rows shown per list; the rest are counted and left to results.json. */
    static final int MAX_ROWS = 100;
    private static final int MAX_DETAILS_CHARS = 20_000;

    /** The anchor prefix of the first server card's rows; the chart's marks link to it ({@link RunPages}). */
    static final String SERVER_ANCHORS = "srv-";

    /**
     * The card of each kind of findings, by its record's type: a new checker's findings record gets its line here.
     * CardsTest checks that every kind {@link Findings#kinds()} lists has one.
     */
    static final Map<Class<? extends Findings>, Card<?>> REGISTRY = Card.registry(
            Card.of(LinearizabilityDetails.class, Cards::linear),
            Card.of(SingleLeaderReport.class, Cards::leader),
            Card.of(SetReport.class, Cards::set),
            Card.of(ReadModelReport.class, Cards::readModel),
            Card.of(FencedReport.class, Cards::fenced),
            Card.of(LogReport.class, Cards::log),
            Card.of(FinalStateReport.class, Cards::finalState),
            Card.of(WatchesReport.class, Cards::watches),
            Card.of(SessionsReport.class, Cards::sessions),
            Card.of(SequentialReport.class, Cards::sequential),
            Card.of(MultiReport.class, Cards::multi),
            Card.of(RecoveryReport.class, Cards::recovery),
            Card.of(ChurnReport.class, Cards::churn),
            Card.of(AvailabilityReport.class, Cards::availability),
            Card.of(ServerReport.class, Cards::server),
            // its tables are in "What the run exercised"
            Card.of(EvidenceReport.class, (e, b) -> b.fact("requirements met",
                    e.met().size() + " of " + e.required().size())),
            Card.of(CheckResult.CheckerError.class, (e, b) -> b.findings.add(
                    Text.plain("the checker threw " + e.type() + ": " + e.message()))),
            Card.of(Findings.Untyped.class, (u, b) -> { })); // saved without a kind: the plain card

    private final HistoryIndex index;
    /** Server cards drawn so far: each gets its own anchors. */
    private int serverCards;

    private Cards(HistoryIndex index) {
        this.index = index;
    }

    /** Every result in the tree, the root first (depth 0); empty for a null tree. */
    static List<CheckerCard> of(CheckResult results, HistoryIndex index) {
        List<CheckerCard> out = new ArrayList<>();
        if (results != null) {
            new Cards(index).walk(results, 0, out);
        }
        return out;
    }

    /** Whether some result in the tree has details saved without a kind (so its card is a plain one). */
    static boolean hasUntyped(CheckResult r) {
        return r != null && (r.details() instanceof Findings.Untyped
                || r.parts().stream().anyMatch(Cards::hasUntyped));
    }

    private void walk(CheckResult r, int depth, List<CheckerCard> out) {
        out.add(card(r, depth));
        for (CheckResult part : r.parts()) {
            walk(part, depth + 1, out);
        }
    }

    private CheckerCard card(CheckResult r, int depth) {
        Builder b = new Builder(this);
        Findings d = r.details();
        if (d != null) { // null is a verdict composed of parts: its card is its summary
            // a type without a card (none today: CardsTest draws every kind) gets the plain card
            Card<?> card = REGISTRY.get(d.getClass());
            if (card != null) {
                card.drawAny(d, b);
            }
        }
        Verdict v = new Verdict(r);
        return new CheckerCard(r.checker(), v.css, v.word, Text.of(r.summary()), depth, cap(b.findings),
                more(b.findings), b.linear, cap(b.lost), more(b.lost), cap(b.unexpected), cap(b.stale),
                more(b.stale), cap(b.overlaps), cap(b.failovers), b.facts, details(d), b.servers, b.availability);
    }

    /** A verdict as a CSS class and a word. */
    private record Verdict(String css, String word) {
        Verdict(CheckResult r) {
            this(r.validity().name().toLowerCase(Locale.ROOT), Verdicts.word(r.validity()));
        }
    }

    /** What one card collects, and what its drawing may ask of the whole page. */
    static final class Builder {
        private final Cards cards;
        /** The history, for times and the operations the findings name by entry. */
        final HistoryIndex index;
        final List<Text> findings = new ArrayList<>();
        CheckerCard.LinearView linear;
        final List<CheckerCard.LostRow> lost = new ArrayList<>();
        final List<CheckerCard.UnexpectedRow> unexpected = new ArrayList<>();
        final List<CheckerCard.StaleRow> stale = new ArrayList<>();
        final List<CheckerCard.OverlapRow> overlaps = new ArrayList<>();
        final List<CheckerCard.FailoverRow> failovers = new ArrayList<>();
        final List<CheckerCard.Fact> facts = new ArrayList<>();
        ServersView servers;
        AvailabilityView availability;

        private Builder(Cards cards) {
            this.cards = cards;
            this.index = cards.index;
        }

        /** The anchor prefix of this server card's rows: the first one's is {@link #SERVER_ANCHORS}. */
        String serverAnchors() {
            return cards.serverCards++ == 0 ? SERVER_ANCHORS : "srv" + cards.serverCards + "-";
        }

        void fact(String name, long count) {
            facts.add(new CheckerCard.Fact(name, Fmt.count(count)));
        }

        void fact(String name, String value) {
            if (value != null) {
                facts.add(new CheckerCard.Fact(name, value));
            }
        }
    }

    private static void linear(LinearizabilityDetails d, Builder b) {
        b.fact("model", d.model());
        b.fact("operations searched", d.operations());
        b.fact("partitions", d.partitions());
        b.fact("indeterminate ops no read observed (dropped)", d.unobservedDropped());
        b.fact("search time (ms)", d.elapsedMillis());
        if (d.unknownCause() != null) {
            b.findings.add(Text.plain(d.unknownCause()));
        }
        Counterexample c = d.counterexample();
        if (c == null) {
            return;
        }
        Set<Long> entries = new LinkedHashSet<>();
        CheckerCard.OpRow failing = opRow(c.operation(), entries, b.index);
        List<CheckerCard.OpRow> concurrent = c.concurrent().stream().map(o -> opRow(o, entries, b.index)).toList();
        List<CheckerCard.OpRow> prefix = c.linearizedPrefix().stream().map(o -> opRow(o, entries, b.index)).toList();
        StringJoiner all = new StringJoiner(",");
        entries.forEach(e -> all.add(Long.toString(e)));
        b.linear = new CheckerCard.LinearView(c.partition(), failing, concurrent, prefix, c.prefixLength(),
                c.prefixOmitted(), c.possibleStates(), c.morePossibleStates(), all.toString());
    }

    private static CheckerCard.OpRow opRow(OpView o, Set<Long> entries, HistoryIndex index) {
        entries.add(o.invokeIndex());
        if (o.completeIndex() >= 0) {
            entries.add(o.completeIndex());
        }
        Operation op = index.at(o.invokeIndex());
        return new CheckerCard.OpRow(o.process(), o.f(), o.key() == null ? "" : o.key(),
                Fmt.clip(Fmt.value(o.value()), 200), o.outcome(), o.invokeIndex(), o.completeIndex(),
                op == null ? "?" : Fmt.at(op.invokeTime()),
                op == null || o.completeIndex() < 0 ? "never" : Fmt.at(op.completeTime()), o.description());
    }

    private static void leader(SingleLeaderReport d, Builder b) {
        b.fact("leaderships", d.intervals().size());
        b.fact("overlaps of two leaders", d.overlaps().size());
        b.fact("heals judged", d.failovers().size());
        d.violations().forEach(s -> b.findings.add(Text.of(s))); // kept only in words: linked by them
        for (LeaderOverlap o : d.overlaps()) {
            b.overlaps.add(new CheckerCard.OverlapRow(o.stale().label(), o.newer().label(), o.startIndex(),
                    Fmt.at(o.startNanos()), Fmt.span(o.lengthNanos()), o.fencingWouldReject(),
                    o.stale().startIndex() + "," + o.newer().startIndex()));
        }
        for (Failover f : d.failovers()) {
            String bound = f.withinBound() == null ? "cannot tell" : f.withinBound() ? "yes" : "NO";
            LeaderInterval l = f.leader();
            b.failovers.add(new CheckerCard.FailoverRow(f.trigger(), f.triggerIndex(), Fmt.at(f.triggerNanos()),
                    l == null ? "none" : l.label(), Fmt.span(f.failoverNanos()), bound));
        }
    }

    private static void set(SetReport d, Builder b) {
        b.fact("values added", d.attempted());
        b.fact("acknowledged", d.acknowledged());
        b.fact("indeterminate", d.indeterminate());
        b.fact("final reads", d.finalReads().size());
        b.fact("acknowledged after every final read began (not judged)", d.notCovered());
        d.unreadErrors().forEach(s -> b.findings.add(Text.of("a final read did not complete: " + s)));
        for (LostValue l : d.lost()) {
            b.lost.add(new CheckerCard.LostRow(Fmt.clip(Fmt.value(l.value()), 200), l.process(), l.invokeIndex(),
                    l.ackIndex(), Fmt.at(l.invokeNanos()), Fmt.at(l.ackNanos()), String.join(", ", l.lackingIn())));
        }
        for (UnexpectedValue u : d.unexpected()) {
            b.unexpected.add(new CheckerCard.UnexpectedRow(Fmt.clip(Fmt.value(u.value()), 200), u.reason(),
                    u.readIn(), u.readIndex()));
        }
    }

    private static void readModel(ReadModelReport d, Builder b) {
        HistoryIndex index = b.index;
        b.fact("writes and cas", d.writes());
        b.fact("sync-reads", d.syncReads());
        b.fact("plain reads", d.plainReads());
        b.fact("stale plain reads", d.staleReads().size());
        b.fact("strict", Boolean.toString(d.strict()));
        for (ReadViolation v : d.violations()) {
            b.findings.add(Text.naming(v.explanation(), List.of(v.readIndex(), v.seenIndex())));
        }
        for (StaleRead s : d.staleReads()) {
            long ack = s.newerAckIndex();
            Operation write = index.at(ack);
            b.stale.add(new CheckerCard.StaleRow(s.key() == null ? "" : s.key(), s.process(),
                    Fmt.clip(Fmt.value(s.value()), 200), Fmt.clip(Fmt.value(s.newerValue()), 200), s.readIndex(),
                    Fmt.at(index.timeOf(s.readIndex())), write == null ? ack : write.invokeIndex(), ack,
                    write == null ? -1 : write.process(), Fmt.at(index.timeOf(ack)), Fmt.span(s.stalenessNanos())));
        }
    }

    private static void fenced(FencedReport d, Builder b) {
        b.fact("writes accepted", d.accepted());
        b.fact("rejected as stale", d.rejected());
        b.fact("indeterminate", d.indeterminate());
        b.fact("log entries read", d.logLength());
        for (FencedViolation v : d.violations()) {
            // higherIndex is a history entry only for a write accepted after a higher one (else a log position)
            b.findings.add(Text.naming(v.explanation(), v.kind().equals("accepted-after-higher")
                    ? List.of(v.index(), v.higherIndex()) : List.of(v.index())));
        }
    }

    private static void log(LogReport d, Builder b) {
        b.fact("nodes read", d.nodes().size());
        b.fact("longest log", d.longest());
        for (LogViolation v : d.violations()) {
            b.findings.add(Text.naming(v.explanation(), List.of(v.readIndex())));
        }
    }

    private static void finalState(FinalStateReport d, Builder b) {
        b.fact("servers read", d.servers().size());
        if (!d.unread().isEmpty()) {
            b.fact("not read", String.join(", ", d.unread()));
        }
        b.fact("groups of identical trees", d.groups().size());
        b.fact("znodes that differ", d.totalDifferences());
        b.fact("ephemerals left", d.ephemerals().size());
        for (TreeDifference t : d.differences()) {
            b.findings.add(Text.plain(t.explanation()));
        }
        for (LeftEphemeral e : d.ephemerals()) {
            b.findings.add(Text.naming(e.explanation(), List.of(e.readIndex())));
        }
        if (!d.acls().isEmpty()) {
            b.fact("znodes with an unexpected ACL", d.acls().size());
        }
        d.acls().forEach(a -> b.findings.add(Text.plain(a.explanation())));
    }

    private static void watches(WatchesReport d, Builder b) {
        b.fact("watching sessions", d.sessions());
        b.fact("one-time watches set", d.watchesSet());
        b.fact("persistent watches added", d.persistentAdded());
        b.fact("events delivered", d.events());
        b.fact("events placed by their change", d.eventsPlaced());
        b.fact("changes committed", d.changes());
        b.fact("changes of unknown outcome", d.unknownChanges());
        for (WatchViolation v : d.violations()) {
            b.findings.add(Text.of(v.rule() + ": " + v.explanation())); // names its events and reads by index
        }
    }

    private static void sessions(SessionsReport d, Builder b) {
        b.fact("sessions opened", d.sessions());
        b.fact("closed (acknowledged)", d.closed());
        b.fact("closed by another handle", d.expiredByOp());
        b.fact("told Expired", d.expiredEvents());
        b.fact("ephemerals created", d.ephemerals());
        b.fact("reads", d.reads());
        b.fact("events", d.events());
        b.fact("cut-off sessions held to the bound", d.cutOffJudged());
        b.fact("cut-off sessions excused", d.cutOffExcused().size());
        b.fact("bound past the session timeout (ms)", d.boundMillis());
        b.fact("violations", d.violationCount());
        d.violations().forEach(v -> b.findings.add(Text.naming(v.rule() + ": " + v.text(), v.indices())));
    }

    private static void sequential(SequentialReport d, Builder b) {
        b.fact("parents", d.parents().size());
        b.fact("creates acknowledged", d.acknowledged());
        b.fact("of them ephemeral", d.ephemeral());
        b.fact("indeterminate", d.indeterminate());
        b.fact("indeterminate found present", d.indeterminatePresent());
        b.fact("failed", d.failed());
        b.fact("reads checked", d.reads());
        b.fact("final reads", String.join(", ", d.finalReads()));
        b.fact("violations", d.violationCount());
        d.violations().forEach(v -> b.findings.add(Text.naming(v.rule() + ": " + v.text(), v.indices())));
    }

    private static void multi(MultiReport d, Builder b) {
        b.fact("registers", d.registers().size());
        b.fact("nodes", d.nodes().size());
        b.fact("transactions acknowledged", d.txnsOk());
        b.fact("failed", d.txnsFailed());
        b.fact("indeterminate", d.txnsIndeterminate());
        b.fact("reads in one read-only multi", d.multiReads());
        b.fact("reads of one znode", d.singleReads());
        b.fact("reads held to real time (strict)", Boolean.toString(d.strict()));
        b.fact("stale reads" + (d.strict() ? "" : " (allowed)"), d.staleReads());
        b.fact("violations", d.violationCount());
        d.violations().forEach(v -> b.findings.add(Text.naming(v.rule() + ": " + v.text(), v.indices())));
        d.stale().forEach(s -> b.findings.add(Text.of("stale" + (d.strict() ? "" : " (allowed)") + ": " + s)));
    }

    private static void churn(ChurnReport d, Builder b) {
        b.fact("sessions ended", d.ended().isEmpty() ? "none" : new java.util.TreeMap<>(d.ended()).entrySet().stream()
                .map(e -> e.getKey() + " " + e.getValue()).collect(java.util.stream.Collectors.joining(", ")));
        b.fact("live at the reads", d.live());
        b.fact("ephemerals acknowledged", d.created());
        if (!d.unread().isEmpty()) {
            b.fact("not read", String.join(", ", d.unread()));
        }
        b.fact("not judged", d.unjudged());
        b.fact("margin past the session timeout", Fmt.span(d.marginMillis() * 1_000_000L));
        for (ChurnReport.Breach e : d.left()) {
            b.findings.add(Text.naming(e.explanation(), List.of(e.readIndex())));
        }
        for (ChurnReport.Breach e : d.missing()) {
            b.findings.add(Text.naming(e.explanation(), List.of(e.readIndex())));
        }
    }

    private static void availability(AvailabilityReport d, Builder b) {
        b.fact("bound", Fmt.span(d.boundMillis() * 1_000_000L));
        String judged = d.stretchesJudged() + ", " + Fmt.span(d.judgedMillis() * 1_000_000L);
        b.fact("stretches judged (a whole majority)", judged);
        b.fact("stretches excused", Integer.toString(d.excused().size()));
        b.fact("probe writes acknowledged", d.probeAcks() + " of " + d.probeWrites());
        List<AvailabilityView.StallRow> stalls = new ArrayList<>();
        for (AvailabilityReport.Stall s : d.stalls()) {
            String whole = String.join(", ", s.stretch().whole());
            String lastAck = s.lastAckNanos() == null ? "never" : Fmt.at(s.lastAckNanos());
            b.findings.add(Text.naming(s.node() + " acknowledged no probe write for " + Fmt.span(s.toNanos()
                    - s.fromNanos()) + " from " + Fmt.at(s.fromNanos()) + " (" + s.attempts() + " attempted"
                    + (s.error() == null ? "" : ", " + s.error()) + ") while " + whole + " were whole; last "
                    + "acknowledged " + (s.lastAckNanos() == null ? "never" : "at " + lastAck),
                    s.lastAckIndex() == null ? List.of() : List.of(s.lastAckIndex())));
            stalls.add(new AvailabilityView.StallRow("stall-" + stalls.size(), s.node(), s.fromNanos(), s.toNanos(),
                    Fmt.at(s.fromNanos()), Fmt.at(s.toNanos()), Fmt.span(s.toNanos() - s.fromNanos()), lastAck,
                    s.lastAckIndex() == null ? -1 : s.lastAckIndex(), s.attempts(),
                    s.error() == null ? "" : Fmt.clip(s.error(), 300), whole));
        }
        List<AvailabilityView.StretchRow> excused = new ArrayList<>();
        for (AvailabilityReport.Stretch s : d.excused()) {
            excused.add(new AvailabilityView.StretchRow(s.startNanos(), s.endNanos(), Fmt.at(s.startNanos()),
                    Fmt.at(s.endNanos()), Fmt.span(s.endNanos() - s.startNanos()),
                    s.whole().isEmpty() ? "none" : String.join(", ", s.whole()),
                    s.faults().isEmpty() ? "servers down" : String.join("; ", s.faults())));
        }
        String judgedInAll = d.stretchesJudged() + (d.stretchesJudged() == 1 ? " stretch, " : " stretches, ")
                + Fmt.span(d.judgedMillis() * 1_000_000L) + " in all";
        b.availability = new AvailabilityView(cap(stalls), more(stalls), judgedInAll, cap(excused), more(excused));
    }

    private static void server(ServerReport d, Builder b) {
        String anchors = b.serverAnchors();
        long logs = d.nodes().stream().filter(n -> n.lines() > 0).count();
        b.fact("logs read", logs + " of " + (d.nodes().size() + d.missingLogs().size()));
        b.fact("lines read", d.nodes().stream().mapToLong(ServerReport.NodeRead::lines).sum());
        b.fact("signatures", d.signatures().size() + " (" + d.errors().size() + " error)");
        b.fact("crashes", d.crashes().size() + " ("
                + d.crashes().stream().filter(c -> c.excusedBy() != null).count() + " excused)");
        b.fact("rejoin loops", d.rejoinJudged() ? Integer.toString(d.rejoinLoops().size()) : "not judged");
        d.problems().forEach(p -> b.findings.add(Text.plain(p)));

        List<ServersView.CrashRow> crashes = new ArrayList<>();
        List<ServersView.ExcusedRow> excused = new ArrayList<>();
        for (int i = 0; i < d.crashes().size(); i++) {
            ServerReport.Crash c = d.crashes().get(i);
            String id = anchors + "crash-" + i;
            if (c.excusedBy() != null) {
                excused.add(new ServersView.ExcusedRow(id, "crash", "crash (" + exit(c.exitCode(), c.signal())
                        + ")", c.node(), c.timeNanos(), c.timeNanos(), Fmt.at(c.timeNanos()), c.excusedBy()));
            } else {
                crashes.add(new ServersView.CrashRow(id, c.node(), c.timeNanos(), Fmt.at(c.timeNanos()),
                        exit(c.exitCode(), c.signal()), c.nemesis() == null ? "nothing" : c.nemesis(),
                        Fmt.clip(String.join("\n", c.lastLines()), 8_000)));
            }
        }
        List<ServersView.CrashLoopRow> loops = new ArrayList<>();
        for (int i = 0; i < d.crashLoops().size(); i++) {
            ServerReport.CrashLoop l = d.crashLoops().get(i);
            String id = anchors + "loop-" + i;
            if (l.excusedBy() != null) {
                excused.add(new ServersView.ExcusedRow(id, "crash-loop", "crash loop", l.node(),
                        l.startedNanos(), l.exitedNanos(), Fmt.at(l.startedNanos()) + " to " + Fmt.at(l.exitedNanos()), l.excusedBy()));
            } else {
                loops.add(new ServersView.CrashLoopRow(id, l.node(), l.startedNanos(), l.exitedNanos(),
                        Fmt.at(l.startedNanos()),
                        Fmt.at(l.exitedNanos()), Fmt.span(l.exitedNanos() - l.startedNanos()),
                        exit(l.exitCode(), l.signal())));
            }
        }
        List<ServersView.RejoinRow> rejoins = new ArrayList<>();
        for (int i = 0; i < d.rejoinLoops().size(); i++) {
            ServerReport.RejoinLoop r = d.rejoinLoops().get(i);
            String id = anchors + "rejoin-" + i;
            if (r.excusedBy() != null) {
                excused.add(new ServersView.ExcusedRow(id, "rejoin-loop", "rejoin loop (" + r.syncs()
                        + " syncs)", r.node(), r.firstNanos(), r.lastNanos(), Fmt.at(r.firstNanos()) + " to " + Fmt.at(r.lastNanos()),
                        r.excusedBy()));
            } else {
                rejoins.add(new ServersView.RejoinRow(id, r.node(), r.syncs(), r.firstNanos(), r.lastNanos(),
                        Fmt.at(r.firstNanos()), Fmt.at(r.lastNanos()), Fmt.at(r.foundNanos()),
                        r.lines().stream().map(ServerReport.Occurrence::timeNanos).toList()));
            }
        }
        List<ServersView.SignatureRow> signatures = new ArrayList<>();
        for (ServerReport.SignatureCount s : d.signatures()) {
            ServerReport.Occurrence first = s.first();
            String classes = s.outer() == null ? "(a line, no exception)" : s.outer()
                    + (s.root() != null && !s.root().equals(s.outer()) ? " caused by " + s.root() : "");
            signatures.add(new ServersView.SignatureRow(anchors + "sig-" + signatures.size(),
                    Fmt.clip(s.signature(), 400), s.verdict().name().toLowerCase(Locale.ROOT), classes,
                    s.frames().stream().limit(5).toList(), s.count(), String.join(", ", s.nodes()),
                    s.why() == null ? "" : s.why(), s.rule() == null ? "" : s.rule(),
                    first == null ? "" : first.node(), first == null ? -1 : first.timeNanos(),
                    first == null ? "—" : Fmt.at(first.timeNanos()), first == null ? 0 : first.lineNumber(),
                    first == null ? "" : Fmt.clip(first.text(), 400), s.sample() == null ? "" : Fmt.clip(s.sample(),
                    400)));
        }
        List<ServersView.ReadRow> reads = d.nodes().stream().map(n -> new ServersView.ReadRow(n.node(), n.lines(),
                n.entries(), n.starts(), n.fromNanos() == null ? "—" : Fmt.at(n.fromNanos()),
                n.toNanos() == null ? "—" : Fmt.at(n.toNanos()), n.syncs(), n.servings())).toList();
        String rejoinRule = d.rejoinJudged() ? d.rejoinCount() + " syncs within " + Fmt.span(d.rejoinWindowNanos())
                + " without serving make a loop" : "not judged: no server logged a line that says it serves (a "
                + "release whose lines the rules do not know)";
        b.servers = new ServersView(cap(crashes), cap(loops), cap(signatures.stream()
                .filter(s -> s.verdict().equals("error")).toList()), cap(rejoins), cap(excused), cap(signatures),
                more(signatures), reads, d.missingLogs(), d.clockBasis(), rejoinRule);
    }

    /** How a process ended: {@code signal KILL (exit code 137)}, {@code exit code 1}, {@code unknown}. */
    static String exit(Integer code, String signal) {
        if (signal != null) {
            return "signal " + signal + (code == null ? "" : " (exit code " + code + ")");
        }
        return code == null ? "exit unknown" : "exit code " + code;
    }

    private static void recovery(RecoveryReport d, Builder b) {
        b.fact("bound after the final heal", Fmt.span(d.boundMillis() * 1_000_000L));
        b.fact("first write acknowledged after", d.writeAfterMillis() == null ? "none"
                : Fmt.span(d.writeAfterMillis() * 1_000_000L) + " (" + d.writeBy() + ")");
        b.fact("servers serving", d.servers().stream().filter(RecoveryReport.ServerRecovery::served).count() + " of "
                + d.servers().size());
        d.problems().forEach(p -> b.findings.add(Text.plain(p)));
        for (RecoveryReport.ServerRecovery s : d.servers()) {
            if (!s.log().isEmpty()) {
                b.findings.add(Text.plain("the end of " + s.node() + "'s log:\n" + Fmt.clip(s.log(), 4_000)));
            }
        }
    }

    /** The details as saved, indented and clipped, for whoever needs the rest. */
    private static String details(Findings d) {
        if (d == null) {
            return "";
        }
        Object saved = d instanceof Findings.Untyped u ? u.fields() : d;
        try {
            return Fmt.clip(Json.MAPPER.writeValueAsString(saved), MAX_DETAILS_CHARS);
        } catch (JsonProcessingException e) {
            return String.valueOf(d);
        }
    }

    private static <T> List<T> cap(List<T> list) {
        return list.size() <= MAX_ROWS ? List.copyOf(list) : List.copyOf(list.subList(0, MAX_ROWS));
    }

    private static int more(List<?> list) {
        return Math.max(0, list.size() - MAX_ROWS);
    }
}
