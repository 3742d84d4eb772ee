package io.zkchaos.results.report;

import io.zkchaos.checkers.servers.ServerEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

/**
 * What the "Who led when" chart draws of the servers' own account, on the page's axis (µs since the history's start):
 * each server process's starts and exits ({@code servers.jsonl}; an exit by itself is a crash), the first occurrence
 * of each log signature, crash and rejoin loops as brackets, stalls, and the stretches without a whole majority.
 * Marks that a card's row explains carry that row's anchor ({@code id}), so the chart links to it. Built from the
 * cards (so the anchors are the cards' own) and the events; embedded in the page's data as {@code account}.
 *
 * @param nodes   every server named, in order (the chart adds a lane for any that cluster.jsonl lacks)
 * @param processes  starts and exits
 * @param signatures the first occurrence of each signature
 * @param loops      crash loops and rejoin loops
 * @param stalls     stalls
 * @param excused    stretches without a whole majority (availability not judged)
 */
public record ServerMarks(List<String> nodes, List<Proc> processes, List<Sig> signatures, List<Loop> loops,
                          List<Stall> stalls, List<Shade> excused) {

    public ServerMarks {
        nodes = List.copyOf(nodes);
        processes = List.copyOf(processes);
        signatures = List.copyOf(signatures);
        loops = List.copyOf(loops);
        stalls = List.copyOf(stalls);
        excused = List.copyOf(excused);
    }

    /**
     * A process of server {@code node} started ({@code start}), was ended by the nemesis or the harness
     * ({@code exit}), or ended by itself ({@code crash}), at {@code at}: its {@code kind}.
     *
     * @param text    what happened, for the tooltip
     * @param excused for a crash, the fault that excuses it, or null
     * @param id      for a crash the server card lists, its row's anchor, or null
     */
    public record Proc(String node, long at, String kind, String text, String excused, String id) {
    }

    /** A signature's first occurrence, on {@code node} at {@code at}: {@code error} verdicts are drawn highlighted. */
    public record Sig(String node, long at, String verdict, String text, String id) {
    }

    /**
     * A crash loop ({@code crash-loop}) or rejoin loop ({@code rejoin-loop}), its {@code kind}, from {@code start}
     * to {@code end}, with the times of its syncs ({@code ticks}) when known.
     */
    public record Loop(String node, long start, long end, String kind, List<Long> ticks, String text, String excused,
                       String id) {
        public Loop {
            ticks = List.copyOf(ticks);
        }
    }

    /** A stall: no probe write through {@code node} acknowledged from {@code start} to {@code end}. */
    public record Stall(String node, long start, long end, String text, String id) {
    }

    /** A stretch without a whole majority. */
    public record Shade(long start, long end, String text) {
    }

    /** The marks, or null when there is nothing to draw (no events, no server or availability findings). */
    static ServerMarks of(List<CheckerCard> cards, List<ServerEvent> events) {
        ServersView servers = cards.stream().map(CheckerCard::servers).filter(Objects::nonNull).findFirst()
                .orElse(null);
        AvailabilityView availability = cards.stream().map(CheckerCard::availability).filter(Objects::nonNull)
                .findFirst().orElse(null);
        if (servers == null && availability == null && events.isEmpty()) {
            return null;
        }
        TreeSet<String> nodes = new TreeSet<>();
        List<Proc> procs = new ArrayList<>();
        List<Crash> crashes = servers == null ? List.of() : crashes(servers);
        List<Crash> drawn = new ArrayList<>();
        for (ServerEvent e : events) {
            if (e.kind() == ServerEvent.Kind.CLOCK) {
                continue;
            }
            nodes.add(e.node());
            if (e.kind() == ServerEvent.Kind.STARTED) {
                procs.add(new Proc(e.node(), us(e.timeNanos()), "start", e.node() + " started"
                        + by(e), null, null));
            } else if (!e.endedByItself()) {
                procs.add(new Proc(e.node(), us(e.timeNanos()), "exit", e.node() + " ended" + by(e) + ", "
                        + Cards.exit(e.exitCode(), e.signal()), null, null));
            } else {
                Crash c = crashes.stream().filter(x -> x.node().equals(e.node()) && x.nanos() == e.timeNanos())
                        .findFirst().orElse(null);
                if (c != null) {
                    drawn.add(c);
                }
                procs.add(new Proc(e.node(), us(e.timeNanos()), "crash", e.node() + " exited by itself ("
                        + Cards.exit(e.exitCode(), e.signal()) + ")" + (e.nemesis() == null ? ""
                        : "; the nemesis then: " + e.nemesis()), c == null ? null : c.excused(),
                        c == null ? null : c.id()));
            }
        }
        // Crashes the card lists but servers.jsonl lacks (it may be cut short): drawn from the card.
        for (Crash c : crashes) {
            if (!drawn.contains(c)) {
                nodes.add(c.node());
                procs.add(new Proc(c.node(), us(c.nanos()), "crash", c.node() + " exited by itself: " + c.exit(),
                        c.excused(), c.id()));
            }
        }
        List<Sig> sigs = new ArrayList<>();
        List<Loop> loops = new ArrayList<>();
        if (servers != null) {
            servers.reads().forEach(r -> nodes.add(r.node()));
            for (ServersView.SignatureRow s : servers.signatures()) {
                if (s.firstNanos() >= 0 && !s.firstNode().isEmpty()) {
                    nodes.add(s.firstNode());
                    sigs.add(new Sig(s.firstNode(), us(s.firstNanos()), s.verdict(), s.verdict() + ": "
                            + s.signature() + " (" + s.count() + "×, on " + s.nodes() + "); first at line "
                            + s.firstLine() + ": " + s.firstText(), s.id()));
                }
            }
            for (ServersView.CrashLoopRow l : servers.crashLoops()) {
                loops.add(new Loop(l.node(), us(l.startedNanos()), us(l.exitedNanos()), "crash-loop", List.of(),
                        l.node() + " crashed " + l.after() + " after its start at " + l.startedAt() + " ("
                        + l.exit() + ")", null, l.id()));
            }
            for (ServersView.RejoinRow r : servers.rejoins()) {
                loops.add(new Loop(r.node(), us(r.firstNanos()), us(r.lastNanos()), "rejoin-loop",
                        r.syncNanos().stream().map(ServerMarks::us).toList(), r.node() + " started to sync "
                        + r.syncs() + " times without serving, " + r.from() + " to " + r.to(), null, r.id()));
            }
            for (ServersView.ExcusedRow x : servers.excused()) {
                if (!x.kind().equals("crash")) {
                    loops.add(new Loop(x.node(), us(x.fromNanos()), us(x.toNanos()), x.kind(), List.of(),
                            x.node() + ": " + x.what() + ", " + x.at(), x.excusedBy(), x.id()));
                }
            }
        }
        List<Stall> stalls = new ArrayList<>();
        List<Shade> shades = new ArrayList<>();
        if (availability != null) {
            for (AvailabilityView.StallRow s : availability.stalls()) {
                nodes.add(s.node());
                stalls.add(new Stall(s.node(), us(s.fromNanos()), us(s.toNanos()), s.node() + " acknowledged no "
                        + "probe write for " + s.gap() + " (" + s.from() + " to " + s.to() + "; last acknowledged "
                        + s.lastAck() + ") while " + s.whole() + " were whole", s.id()));
            }
            for (AvailabilityView.StretchRow s : availability.excused()) {
                shades.add(new Shade(us(s.fromNanos()), us(s.toNanos()), "no whole majority " + s.from() + " to "
                        + s.to() + " (whole: " + s.whole() + "; faults: " + s.faults() + "): availability not judged"));
            }
        }
        return new ServerMarks(List.copyOf(nodes), procs, sigs, loops, stalls, shades);
    }

    /** A crash as the card lists it (excused or not), with its anchor. */
    private record Crash(String node, long nanos, String exit, String excused, String id) {
    }

    private static List<Crash> crashes(ServersView v) {
        List<Crash> out = new ArrayList<>();
        v.crashes().forEach(c -> out.add(new Crash(c.node(), c.timeNanos(), c.exit(), null, c.id())));
        v.excused().stream().filter(x -> x.kind().equals("crash")).forEach(x -> out.add(new Crash(x.node(),
                x.fromNanos(), x.what(), x.excusedBy(), x.id())));
        return out;
    }

    private static String by(ServerEvent e) {
        String by = ServersSection.by(e);
        return by.isEmpty() ? "" : " by " + by;
    }

    private static long us(long nanos) {
        return nanos / 1000;
    }
}
