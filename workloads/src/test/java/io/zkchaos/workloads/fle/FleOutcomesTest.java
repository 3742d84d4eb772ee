package io.zkchaos.workloads.fle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.checkers.history.OpType;
import io.zkchaos.fle.client.IndeterminateException;
import io.zkchaos.fle.client.RejectedException;
import io.zkchaos.workloads.Result;
import io.zkchaos.workloads.Target;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FleOutcomesTest {

    @Test
    void unknownIsInfoAndRetiresTheProcess() {
        Result r = FleOutcomes.of(new IndeterminateException("no answer from /127.0.0.1:1 within 3000 ms"));
        assertThat(r.type()).isEqualTo(OpType.INFO);
        assertThat(r.retiresProcess()).isTrue();
        assertThat(r.error()).contains("no answer");
    }

    @Test
    void aCasMismatchIsAFailTheProcessSurvives() {
        Result r = FleOutcomes.of(new RejectedException("cas mismatch on 'r1': expected '3', found '4'"));
        assertThat(r.type()).isEqualTo(OpType.FAIL);
        assertThat(r.retiresProcess()).isFalse();
    }

    @Test
    void aNodeThatCannotServeFailsTheCallAndMovesTheProcessOn() {
        for (String why : new String[] {"not serving: server 2 is LOOKING", "cannot connect to /127.0.0.1:1: refused"}) {
            Result r = FleOutcomes.of(new RejectedException(why));
            assertThat(r.type()).isEqualTo(OpType.FAIL);
            assertThat(r.retiresProcess()).as(why).isTrue();
        }
    }

    @Test
    void processesTakeTheNodesInTurnAndAddressesAreHostAndPort() {
        Map<String, String> servers = new LinkedHashMap<>();
        servers.put("n1", "127.0.0.101:4001");
        servers.put("n2", "127.0.0.102:4002");
        servers.put("n3", "127.0.0.103:4003");
        Target t = Target.of("127.0.0.101:4001,127.0.0.102:4002,127.0.0.103:4003", servers);
        assertThat(FleNodes.forProcess(t, 0).name()).isEqualTo("n1");
        assertThat(FleNodes.forProcess(t, 4).name()).isEqualTo("n2");
        assertThat(FleNodes.forProcess(t, 5 + 4).address().getPort()).as("a replacement moves on").isEqualTo(4001);
        assertThat(FleNodes.address("127.0.0.1:80").getHostString()).isEqualTo("127.0.0.1");
        assertThatThrownBy(() -> FleNodes.address("nowhere")).hasMessage("not host:port: 'nowhere'");
        assertThatThrownBy(() -> FleNodes.address("h:port")).hasMessage("not host:port: 'h:port'");
    }
}
