package io.zkchaos.results.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ScriptJsonTest {

    @Test
    void nothingThatCouldEndAScriptElementSurvivesAndTheJsonStillReadsBack() throws Exception {
        String nasty = "</script><!-- & > \u2028\u2029 <img src=x>";
        String json = ScriptJson.text(Map.of("v", List.of(nasty)));
        assertThat(json).doesNotContain("<").doesNotContain(">").doesNotContain("&")
                .doesNotContain("\u2028").doesNotContain("\u2029");
        assertThat(new ObjectMapper().readTree(json).path("v").get(0).asText()).isEqualTo(nasty);
    }
}
