package io.zkchaos.results.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.history.Operation;
import io.zkchaos.results.Json;
import io.zkchaos.results.Verdicts;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.StringJoiner;

/**
 * Turns a saved results tree ({@code results.json}) into {@link CheckerCard}s, one per checker, depth first. A
 * checker's kind is told by the shape of its details (the fields its report record has), not by its name, so a
 * checker composed under another name renders the same.
 */
final class Cards {

    /** Rows shown per list; the rest are counted and left to results.json. */
    static final int MAX_ROWS = 100;
    private static final int MAX_DETAILS_CHARS = 20_000;

    private final HistoryIndex index;

    private Cards(HistoryIndex index) {
        this.index = index;
    }

    /** Every result in the tree, the root first (depth 0); empty for a null tree. */
    static List<CheckerCard> of(JsonNode results, HistoryIndex index) {
        List<CheckerCard> out = new ArrayList<>();
        if (results != null) {
            new Cards(index).walk(results, 0, out);
        }
        return out;
    }

    private void walk(JsonNode r, int depth, List<CheckerCard> out) {
        out.add(card(r, depth));
        for (JsonNode part : r.path("parts")) {
            walk(part, depth + 1, out);
        }
    }

    private CheckerCard card(JsonNode r, int depth) {
        Validity v = Verdicts.fromJson(r.get("valid"));
        JsonNode d = r.path("details");
        Builder b = new Builder();
        if (d.has("counterexample") || d.has("unknownCause") && d.has("model")) {
            linear(d, b);
        } else if (d.has("intervals") && d.has("overlaps")) {
            leader(d, b);
        } else if (d.has("lost") && d.has("finalReads")) {
            set(d, b);
        } else if (d.has("staleReads") && d.has("plainReads")) {
            readModel(d, b);
        } else if (d.has("accepted") && d.has("violations")) {
            fenced(d, b);
        } else if (d.has("longest") && d.has("violations")) {
            log(d, b);
        } else if (d.has("watchesSet") && d.has("violations")) {
            watches(d, b);
        } else if (d.has("type") && d.has("message")) {
            b.findings.add(Text.plain("the checker threw " + d.path("type").asText() + ": "
                    + d.path("message").asText()));
        }
        return new CheckerCard(r.path("checker").asText("?"), v.name().toLowerCase(Locale.ROOT), Verdicts.word(v),
                Text.of(r.path("summary").asText("")), depth, cap(b.findings), more(b.findings),
                b.linear, cap(b.lost), more(b.lost), cap(b.unexpected), cap(b.stale), more(b.stale),
                cap(b.overlaps), cap(b.failovers), b.facts, details(d));
    }

    /** What one card collects. */
    private static final class Builder {
        final List<Text> findings = new ArrayList<>();
        CheckerCard.LinearView linear;
        final List<CheckerCard.LostRow> lost = new ArrayList<>();
        final List<CheckerCard.UnexpectedRow> unexpected = new ArrayList<>();
        final List<CheckerCard.StaleRow> stale = new ArrayList<>();
        final List<CheckerCard.OverlapRow> overlaps = new ArrayList<>();
        final List<CheckerCard.FailoverRow> failovers = new ArrayList<>();
        final List<CheckerCard.Fact> facts = new ArrayList<>();

        void fact(String name, JsonNode value) {
            if (value != null && !value.isMissingNode() && !value.isNull()) {
                facts.add(new CheckerCard.Fact(name, value.isNumber() ? Fmt.count(value.asLong()) : value.asText()));
            }
        }
    }

    private void linear(JsonNode d, Builder b) {
        b.fact("model", d.get("model"));
        b.fact("operations searched", d.get("operations"));
        b.fact("partitions", d.get("partitions"));
        b.fact("indeterminate ops no read observed (dropped)", d.get("unobservedDropped"));
        b.fact("search time (ms)", d.get("elapsedMillis"));
        if (d.hasNonNull("unknownCause")) {
            b.findings.add(Text.of(d.get("unknownCause").asText()));
        }
        JsonNode c = d.path("counterexample");
        if (c.isMissingNode() || c.isNull()) {
            return;
        }
        Set<Long> entries = new LinkedHashSet<>();
        CheckerCard.OpRow failing = opRow(c.path("operation"), entries);
        List<CheckerCard.OpRow> concurrent = new ArrayList<>();
        c.path("concurrent").forEach(o -> concurrent.add(opRow(o, entries)));
        List<CheckerCard.OpRow> prefix = new ArrayList<>();
        c.path("linearizedPrefix").forEach(o -> prefix.add(opRow(o, entries)));
        List<String> states = new ArrayList<>();
        c.path("possibleStates").forEach(s -> states.add(s.asText()));
        StringJoiner all = new StringJoiner(",");
        entries.forEach(e -> all.add(Long.toString(e)));
        b.linear = new CheckerCard.LinearView(c.hasNonNull("partition") ? c.get("partition").asText() : null, failing,
                concurrent, prefix, c.path("prefixLength").asInt(), c.path("prefixOmitted").asInt(), states,
                c.path("morePossibleStates").asBoolean(), all.toString());
    }

    private CheckerCard.OpRow opRow(JsonNode o, Set<Long> entries) {
        long inv = o.path("invokeIndex").asLong(-1);
        long done = o.path("completeIndex").asLong(-1);
        entries.add(inv);
        if (done >= 0) {
            entries.add(done);
        }
        Operation op = index.at(inv);
        return new CheckerCard.OpRow(o.path("process").asInt(), o.path("f").asText(),
                o.hasNonNull("key") ? o.get("key").asText() : "", Fmt.clip(json(o.get("value")), 200),
                o.path("outcome").asText(), inv, done, op == null ? "?" : Fmt.at(op.invokeTime()),
                op == null || done < 0 ? "never" : Fmt.at(op.completeTime()), o.path("description").asText());
    }

    private void leader(JsonNode d, Builder b) {
        b.fact("leaderships", count(d.path("intervals")));
        b.fact("overlaps of two leaders", count(d.path("overlaps")));
        b.fact("heals judged", count(d.path("failovers")));
        d.path("violations").forEach(s -> b.findings.add(Text.of(s.asText())));
        for (JsonNode o : d.path("overlaps")) {
            JsonNode stale = o.path("stale");
            JsonNode newer = o.path("newer");
            String entries = stale.path("startIndex").asLong() + "," + newer.path("startIndex").asLong();
            b.overlaps.add(new CheckerCard.OverlapRow(label(stale), label(newer), o.path("startIndex").asLong(),
                    Fmt.at(o.path("startNanos").asLong(-1)), Fmt.span(o.path("lengthNanos").asLong(-1)),
                    o.path("fencingWouldReject").asBoolean(), entries));
        }
        for (JsonNode f : d.path("failovers")) {
            JsonNode within = f.get("withinBound");
            String bound = within == null || within.isNull() ? "cannot tell" : within.asBoolean() ? "yes" : "NO";
            JsonNode l = f.path("leader");
            b.failovers.add(new CheckerCard.FailoverRow(f.path("trigger").asText(), f.path("triggerIndex").asLong(),
                    Fmt.at(f.path("triggerNanos").asLong(-1)), l.isNull() || l.isMissingNode() ? "none" : label(l),
                    Fmt.span(f.path("failoverNanos").asLong(-1)), bound));
        }
    }

    private static String label(JsonNode interval) {
        return interval.path("node").asText() + " (token " + interval.path("token").asText() + ", process "
                + interval.path("process").asText() + ")";
    }

    private void set(JsonNode d, Builder b) {
        b.fact("values added", d.get("attempted"));
        b.fact("acknowledged", d.get("acknowledged"));
        b.fact("indeterminate", d.get("indeterminate"));
        b.fact("final reads", count(d.path("finalReads")));
        b.fact("acknowledged after every final read began (not judged)", d.get("notCovered"));
        d.path("unreadErrors").forEach(s -> b.findings.add(Text.of("a final read did not complete: " + s.asText())));
        for (JsonNode l : d.path("lost")) {
            List<String> lacking = new ArrayList<>();
            l.path("lackingIn").forEach(n -> lacking.add(n.asText()));
            b.lost.add(new CheckerCard.LostRow(Fmt.clip(json(l.get("value")), 200), l.path("process").asInt(),
                    l.path("invokeIndex").asLong(), l.path("ackIndex").asLong(), Fmt.at(l.path("invokeNanos").asLong(-1)),
                    Fmt.at(l.path("ackNanos").asLong(-1)), String.join(", ", lacking)));
        }
        for (JsonNode u : d.path("unexpected")) {
            b.unexpected.add(new CheckerCard.UnexpectedRow(Fmt.clip(json(u.get("value")), 200),
                    u.path("reason").asText(), u.path("readIn").asText(), u.path("readIndex").asLong()));
        }
    }

    private void readModel(JsonNode d, Builder b) {
        b.fact("writes and cas", d.get("writes"));
        b.fact("sync-reads", d.get("syncReads"));
        b.fact("plain reads", d.get("plainReads"));
        b.fact("stale plain reads", count(d.path("staleReads")));
        b.fact("strict", d.get("strict"));
        d.path("violations").forEach(v -> b.findings.add(Text.of(v.path("explanation").asText())));
        for (JsonNode s : d.path("staleReads")) {
            long read = s.path("readIndex").asLong();
            long ack = s.path("newerAckIndex").asLong();
            Operation write = index.at(ack);
            b.stale.add(new CheckerCard.StaleRow(s.path("key").asText(), s.path("process").asInt(),
                    Fmt.clip(json(s.get("value")), 200), Fmt.clip(json(s.get("newerValue")), 200), read,
                    Fmt.at(index.timeOf(read)), write == null ? ack : write.invokeIndex(), ack,
                    write == null ? -1 : write.process(), Fmt.at(index.timeOf(ack)),
                    Fmt.span(s.path("stalenessNanos").asLong(-1))));
        }
    }

    private void fenced(JsonNode d, Builder b) {
        b.fact("writes accepted", d.get("accepted"));
        b.fact("rejected as stale", d.get("rejected"));
        b.fact("indeterminate", d.get("indeterminate"));
        b.fact("log entries read", d.get("logLength"));
        d.path("violations").forEach(v -> b.findings.add(Text.of(v.path("explanation").asText())));
    }

    private void log(JsonNode d, Builder b) {
        b.fact("nodes read", count(d.path("nodes")));
        b.fact("longest log", d.get("longest"));
        d.path("violations").forEach(v -> b.findings.add(Text.of(v.path("explanation").asText())));
    }

    private void watches(JsonNode d, Builder b) {
        b.fact("watching sessions", d.get("sessions"));
        b.fact("one-time watches set", d.get("watchesSet"));
        b.fact("persistent watches added", d.get("persistentAdded"));
        b.fact("events delivered", d.get("events"));
        b.fact("events placed by their change", d.get("eventsPlaced"));
        b.fact("changes committed", d.get("changes"));
        b.fact("changes of unknown outcome", d.get("unknownChanges"));
        d.path("violations").forEach(v -> b.findings.add(Text.of(v.path("rule").asText() + ": "
                + v.path("explanation").asText())));
    }

    private static JsonNode count(JsonNode array) {
        return com.fasterxml.jackson.databind.node.IntNode.valueOf(array.size());
    }

    private static String json(JsonNode v) {
        if (v == null || v.isNull()) {
            return "null";
        }
        return v.toString();
    }

    private static String details(JsonNode d) {
        if (d == null || d.isMissingNode() || d.isNull()) {
            return "";
        }
        try {
            return Fmt.clip(Json.MAPPER.writeValueAsString(d), MAX_DETAILS_CHARS);
        } catch (JsonProcessingException e) {
            return d.toString();
        }
    }

    private static <T> List<T> cap(List<T> list) {
        return list.size() <= MAX_ROWS ? List.copyOf(list) : List.copyOf(list.subList(0, MAX_ROWS));
    }

    private static int more(List<?> list) {
        return Math.max(0, list.size() - MAX_ROWS);
    }
}
