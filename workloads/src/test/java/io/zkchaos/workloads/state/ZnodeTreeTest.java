package io.zkchaos.workloads.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;

/** How one znode is written for the history (the reads themselves run on real servers in FinalStateIT). */
class ZnodeTreeTest {

    private static Stat stat() {
        Stat s = new Stat();
        s.setVersion(2);
        s.setCzxid(5);
        s.setMzxid(7);
        s.setPzxid(5);
        return s;
    }

    @Test
    void smallDataIsKeptAsTextOrBase64() {
        assertThat(ZnodeTree.znode("v1".getBytes(StandardCharsets.UTF_8), stat())).containsEntry("data", "v1")
                .doesNotContainKey("dataSha256");
        assertThat(ZnodeTree.znode(new byte[] {0, 1}, stat())).containsEntry("dataBase64", "AAE=");
        byte[] limit = new byte[ZnodeTree.LARGE_DATA];
        Arrays.fill(limit, (byte) 'a');
        assertThat(ZnodeTree.znode(limit, stat())).containsKey("data");
    }

    @Test
    void largeDataIsItsLengthAndDigestSoThatTwoServersStillCompare() {
        byte[] big = new byte[ZnodeTree.LARGE_DATA + 1];
        Arrays.fill(big, (byte) 'a');
        var z = ZnodeTree.znode(big, stat());
        assertThat(z).doesNotContainKeys("data", "dataBase64").containsEntry("dataBytes", (long) big.length)
                .containsEntry("version", 2L);
        assertThat((String) z.get("dataSha256")).hasSize(64).matches("[0-9a-f]+");
        byte[] other = big.clone();
        other[500] = 'b';
        assertThat(ZnodeTree.znode(other, stat()).get("dataSha256")).as("one byte differs")
                .isNotEqualTo(z.get("dataSha256"));
        assertThat(ZnodeTree.znode(big.clone(), stat())).isEqualTo(z);
    }
}
