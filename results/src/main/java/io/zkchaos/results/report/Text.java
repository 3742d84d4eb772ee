package io.zkchaos.results.report;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongPredicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A checker's sentence cut into plain text and links to the history entries it names. Where a finding is a record
 * ({@link #naming}), its typed fields say which entries to link, and the sentence only says where: at the words the
 * checkers use for a history entry everywhere ({@code at index 7}, {@code history entries 2-4}), or appended when the
 * sentence does not name one. A sentence with no record behind it (a checker's summary, a violation kept only in
 * words) is linked by those words alone ({@link #of}).
 *
 * @param segments the sentence in order: text, and entry numbers to link
 */
public record Text(List<Segment> segments) {

    /** Plain text ({@code entry} -1) or an entry number shown as a link. */
    public record Segment(String text, long entry) {
        public boolean isLink() {
            return entry >= 0;
        }
    }

    // "index 7", "indices 3 and 5" is not used by the checkers; "entries 2-4" / "entries 2–4" is.
    private static final Pattern REF = Pattern.compile("\\b(index|entry|entries) (\\d+)(?:([-–])(\\d+))?");

    public Text {
        segments = List.copyOf(segments);
    }

    /** Plain text, no links. */
    public static Text plain(String s) {
        return new Text(List.of(new Segment(s == null ? "" : s, -1)));
    }

    /**
     * Cuts {@code s} at every history reference. A {@code log entry N} (a position in a server's log, not in the
     * history) is left as text.
     */
    public static Text of(String s) {
        return new Text(cut(s == null ? "" : s, entry -> true, new LinkedHashSet<>()));
    }

    /**
     * {@code s} with exactly {@code entries} linked (negative ones, "none", are left out): each where the sentence
     * names it as a history entry, the others after it ({@code (entry 12)}). Other numbers stay text.
     */
    public static Text naming(String s, Collection<Long> entries) {
        Set<Long> wanted = new LinkedHashSet<>();
        entries.stream().filter(e -> e >= 0).forEach(wanted::add);
        Set<Long> linked = new LinkedHashSet<>();
        List<Segment> out = cut(s == null ? "" : s, wanted::contains, linked);
        List<Long> rest = wanted.stream().filter(e -> !linked.contains(e)).toList();
        if (!rest.isEmpty()) {
            out.add(new Segment(rest.size() == 1 ? " (entry " : " (entries ", -1));
            for (int i = 0; i < rest.size(); i++) {
                if (i > 0) {
                    out.add(new Segment(", ", -1));
                }
                out.add(new Segment(Long.toString(rest.get(i)), rest.get(i)));
            }
            out.add(new Segment(")", -1));
        }
        return new Text(out);
    }

    /** The segments of {@code s}, linking the references {@code link} accepts; adds those linked to {@code linked}. */
    private static List<Segment> cut(String s, LongPredicate link, Set<Long> linked) {
        List<Segment> out = new ArrayList<>();
        Matcher m = REF.matcher(s);
        int at = 0;
        while (m.find()) {
            int start = m.start();
            if (m.group(1).equals("entry") && s.substring(Math.max(0, start - 4), start).equals("log ")) {
                continue;
            }
            long first = Long.parseLong(m.group(2));
            long second = m.group(4) == null ? -1 : Long.parseLong(m.group(4));
            if (!link.test(first) && (second < 0 || !link.test(second))) {
                continue;
            }
            out.add(new Segment(s.substring(at, m.start(2)), -1));
            out.add(link.test(first) ? new Segment(m.group(2), first) : new Segment(m.group(2), -1));
            if (second >= 0) {
                out.add(new Segment(m.group(3), -1));
                out.add(link.test(second) ? new Segment(m.group(4), second) : new Segment(m.group(4), -1));
            }
            out.stream().filter(Segment::isLink).forEach(seg -> linked.add(seg.entry()));
            at = m.end();
        }
        out.add(new Segment(s.substring(at), -1));
        out.removeIf(seg -> seg.text().isEmpty());
        return out;
    }

    /** Every entry linked. */
    public List<Long> entries() {
        return segments.stream().filter(Segment::isLink).map(Segment::entry).toList();
    }
}
