package io.zkchaos.results.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class TextTest {

    @Test
    void linksTheEntriesACheckerNames() {
        Text t = Text.of("Process 1's read -> 3 (history entries 2-4) cannot be linearized");
        assertThat(t.entries()).containsExactly(2L, 4L);
        assertThat(t.segments()).extracting(Text.Segment::text)
                .containsExactly("Process 1's read -> 3 (history entries ", "2", "-", "4", ") cannot be linearized");
        assertThat(Text.of("token went backwards: n2 volunteered at index 4, after n1 had acquired at index 1")
                .entries()).containsExactly(4L, 1L);
    }

    @Test
    void aPositionInAServersLogIsNotAHistoryEntry() {
        assertThat(Text.of("log entry 1 (c, token 1) was rejected as stale at index 5 yet stored").entries())
                .containsExactly(5L);
    }

    @Test
    void aFindingsRecordSaysWhichEntriesToLinkAndTheSentenceOnlyWhere() {
        Text t = Text.naming("log entry 3 (c, token 1) was stored after entry 2 with the higher token 4",
                List.of(9L));
        assertThat(t.entries()).as("positions in a log are not history entries").containsExactly(9L);
        assertThat(t.segments()).extracting(Text.Segment::text).containsExactly(
                "log entry 3 (c, token 1) was stored after entry 2 with the higher token 4", " (entry ", "9", ")");

        Text read = Text.naming("process 4 read 1 at index 11, older than 2 which it had seen at index 8",
                List.of(11L, 8L, -1L));
        assertThat(read.entries()).containsExactly(11L, 8L);
        assertThat(read.segments()).extracting(Text.Segment::text).containsExactly("process 4 read 1 at index ",
                "11", ", older than 2 which it had seen at index ", "8");
        assertThat(Text.naming("read at index 12 and at index 14", List.of(14L)).entries())
                .as("only the entries of the finding").containsExactly(14L);
    }
}
