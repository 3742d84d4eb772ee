package io.zkchaos.results.report;

import static org.assertj.core.api.Assertions.assertThat;

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
}
