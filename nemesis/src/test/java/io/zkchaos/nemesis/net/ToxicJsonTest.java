package io.zkchaos.nemesis.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Toxics are written with Toxiproxy's JSON field names and values, so a history can name them as Toxiproxy does. */
class ToxicJsonTest {
    final ObjectMapper json = new ObjectMapper();

    @Test
    void writesToxiproxysShapeAndReadsItBack() throws Exception {
        Toxic t = Toxic.latency("lag", Stream.DOWNSTREAM, 100, 10).withToxicity(0.5);
        JsonNode node = json.readTree(json.writeValueAsString(t));
        assertThat(node.get("name").asText()).isEqualTo("lag");
        assertThat(node.get("type").asText()).isEqualTo("latency");
        assertThat(node.get("stream").asText()).isEqualTo("downstream");
        assertThat(node.get("toxicity").asDouble()).isEqualTo(0.5);
        assertThat(node.get("attributes").get("latency").asLong()).isEqualTo(100);
        assertThat(node.get("attributes").get("jitter").asLong()).isEqualTo(10);
        assertThat(json.readValue(json.writeValueAsString(t), Toxic.class)).isEqualTo(t);
    }

    @Test
    void readsAToxiproxyToxicAndFillsMissingAttributesWithZero() throws Exception {
        Toxic t = json.readValue("{\"name\":\"rst\",\"type\":\"reset_peer\",\"stream\":\"upstream\",\"toxicity\":1,"
                + "\"attributes\":{}}", Toxic.class);
        assertThat(t.type()).isEqualTo(ToxicType.RESET_PEER);
        assertThat(t.attributes()).isEqualTo(Map.of("timeout", 0L));
        assertThatThrownBy(() -> json.readValue("{\"name\":\"x\",\"type\":\"corrupt\",\"stream\":\"upstream\","
                + "\"toxicity\":1,\"attributes\":{}}", Toxic.class)).hasMessageContaining("unknown toxic type 'corrupt'");
    }
}
