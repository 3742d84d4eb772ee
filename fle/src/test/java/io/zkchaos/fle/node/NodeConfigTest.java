package io.zkchaos.fle.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.fle.Bug;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NodeConfigTest {

    @TempDir
    Path dir;

    private Path write(String text) throws IOException {
        return Files.writeString(dir.resolve("node.cfg"), text);
    }

    private String base() {
        return "dataDir=" + dir.resolve("data") + "\nclientPortAddress=127.0.0.1\nclientPort=2181\n"
                + "server.1=127.0.0.1:2888:3888\nserver.2=127.0.0.17:2888:3888\nserver.3=n3:2889:3889\n";
    }

    @Test
    void aZooCfgStyleFileIsRead() throws Exception {
        NodeConfig c = NodeConfig.load(write("# a comment\nmyid=1\n" + base()
                + "tickTime=150\ninitLimit=7\nbugs=no-finalize-wait, ack-before-durable\n"
                + "4lw.commands.whitelist=srvr\nreconfigEnabled=false\n"));
        assertThat(c.myId()).isEqualTo(1);
        assertThat(c.self().electionPort()).isEqualTo(3888);
        assertThat(c.servers().get(2L).host()).isEqualTo("127.0.0.17");
        assertThat(c.servers().get(3L).host()).as("host names stay unresolved until used").isEqualTo("n3");
        assertThat(c.timing().tickMs()).isEqualTo(150);
        assertThat(c.timing().initLimit()).isEqualTo(7);
        assertThat(c.timing().syncLimit()).as("default").isEqualTo(10);
        assertThat(c.bugs().enabled()).containsExactlyInAnyOrder(Bug.NO_FINALIZE_WAIT, Bug.ACK_BEFORE_DURABLE);
        assertThat(c.clientAddress().getPort()).isEqualTo(2181);
    }

    @Test
    void myidMayComeFromTheDataDirAsInZooKeeper() throws Exception {
        Files.createDirectories(dir.resolve("data"));
        Files.writeString(dir.resolve("data/myid"), "2\n");
        assertThat(NodeConfig.load(write(base())).myId()).isEqualTo(2);
    }

    @Test
    void aDuplicateServerIdIsNamed() throws IOException {
        Path f = write("myid=1\n" + base() + "server.2=127.0.0.5:2888:3888\n");
        assertThatThrownBy(() -> NodeConfig.load(f)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("duplicate server id 2 (lines 6 and 8)");
    }

    @Test
    void aKeyGivenTwiceIsNamed() throws IOException {
        Path f = write("myid=1\n" + base() + "tickTime=100\ntickTime=200\n");
        assertThatThrownBy(() -> NodeConfig.load(f)).hasMessageContaining("'tickTime' is set twice");
    }

    @Test
    void anUnknownKeyIsNamed() throws IOException {
        Path f = write("myid=1\n" + base() + "tickTme=100\n");
        assertThatThrownBy(() -> NodeConfig.load(f)).hasMessageContaining("unknown setting 'tickTme'");
    }

    @Test
    void anUnknownBugIsNamedWithTheKnownOnes() throws IOException {
        Path f = write("myid=1\n" + base() + "bugs=elect-without-zxids\n");
        assertThatThrownBy(() -> NodeConfig.load(f)).hasMessageContaining("unknown bug 'elect-without-zxids'")
                .hasMessageContaining("elect-without-zxid, no-epoch-fencing");
    }

    @Test
    void aMyidWithoutAServerLineIsNamed() throws IOException {
        Path f = write("myid=4\n" + base());
        assertThatThrownBy(() -> NodeConfig.load(f)).hasMessageContaining("myid 4 has no server.4 line");
    }

    @Test
    void aMissingMyidIsNamed() throws IOException {
        Path f = write(base());
        assertThatThrownBy(() -> NodeConfig.load(f)).hasMessageContaining("myid is missing");
    }

    @Test
    void aBadServerLineIsNamedWithItsLine() throws IOException {
        Path f = write("myid=1\n" + base() + "server.4=127.0.0.1:2888\n");
        assertThatThrownBy(() -> NodeConfig.load(f)).hasMessageContaining("line 8")
                .hasMessageContaining("host:quorumPort:electionPort");
        Path g = write("myid=1\n" + base() + "server.4=127.0.0.1:2888:70000\n");
        assertThatThrownBy(() -> NodeConfig.load(g)).hasMessageContaining("not a port: '70000'");
    }

    @Test
    void twoServersOnOneAddressAreNamed() throws IOException {
        Path f = write("myid=1\n" + base() + "server.4=127.0.0.17:2888:3999\n");
        assertThatThrownBy(() -> NodeConfig.load(f))
                .hasMessageContaining("servers 2 and 4 share the address 127.0.0.17:2888");
    }

    @Test
    void badTimingsAreNamed() throws IOException {
        Path f = write("myid=1\n" + base() + "tickTime=0\n");
        assertThatThrownBy(() -> NodeConfig.load(f)).hasMessageContaining("tickMs must be positive");
        Path g = write("myid=1\n" + base() + "syncLimit=ten\n");
        assertThatThrownBy(() -> NodeConfig.load(g)).hasMessageContaining("syncLimit must be a number, not 'ten'");
    }

    @Test
    void aMissingFileIsNamed() {
        assertThatThrownBy(() -> NodeConfig.load(dir.resolve("nope.cfg")))
                .hasMessageContaining("cannot read the config file").hasMessageContaining("nope.cfg");
    }
}
