package io.zkchaos.results.report;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A checker's sentence cut into plain text and links to the history entries it names. The checkers name entries
 * the same way everywhere ({@code at index 7}, {@code history entries 2-4}, {@code read at index 11}), so the page
 * can link every explanation to the operations in it without a second description of each finding.
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
        if (s == null) {
            return plain("");
        }
        List<Segment> out = new ArrayList<>();
        Matcher m = REF.matcher(s);
        int at = 0;
        while (m.find()) {
            int start = m.start();
            if (m.group(1).equals("entry") && s.substring(Math.max(0, start - 4), start).equals("log ")) {
                continue;
            }
            out.add(new Segment(s.substring(at, m.start(2)), -1));
            out.add(new Segment(m.group(2), Long.parseLong(m.group(2))));
            if (m.group(4) != null) {
                out.add(new Segment(m.group(3), -1));
                out.add(new Segment(m.group(4), Long.parseLong(m.group(4))));
            }
            at = m.end();
        }
        out.add(new Segment(s.substring(at), -1));
        out.removeIf(seg -> seg.text().isEmpty());
        return new Text(out);
    }

    /** Every entry linked. */
    public List<Long> entries() {
        return segments.stream().filter(Segment::isLink).map(Segment::entry).toList();
    }
}
