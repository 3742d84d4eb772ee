package io.zkchaos.checkers.servers;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SignatureTest {

    private static List<LogLine> withMessage(ServerLog log, String start) {
        return log.entries().stream().filter(e -> e.message().startsWith(start)).toList();
    }

    @Test
    void aTraceIsReadIntoItsClassMessageAndFramesWithoutLineNumbersOrModules() {
        LogLine handler = withMessage(Excerpts.log("n3", Excerpts.ZK395), "Unexpected exception in LearnerHandler")
                .get(0);
        List<Thrown> chain = Thrown.chainOf(handler);
        assertThat(chain).singleElement().satisfies(t -> {
            assertThat(t.className()).isEqualTo("java.io.EOFException");
            assertThat(t.message()).isEqualTo("null");
            assertThat(t.frames()).containsExactly("java.io.DataInputStream.readInt",
                    "org.apache.jute.BinaryInputArchive.readInt",
                    "org.apache.zookeeper.server.quorum.QuorumPacket.deserialize",
                    "org.apache.jute.BinaryInputArchive.readRecord",
                    "org.apache.zookeeper.server.quorum.LearnerHandler.run");
        });
        Signature s = Signature.of(chain);
        assertThat(s.frames()).containsExactly("org.apache.zookeeper.server.quorum.QuorumPacket.deserialize",
                "org.apache.zookeeper.server.quorum.LearnerHandler.run");
        assertThat(s.key()).isEqualTo("java.io.EOFException at QuorumPacket.deserialize < LearnerHandler.run");
    }

    @Test
    void aCauseChainKeepsTheOuterAndTheRootAndTheRootsFramesFirst() {
        LogLine severe = withMessage(Excerpts.log("n1", Excerpts.PLANTED_NPE), "Severe unrecoverable error, from")
                .get(0);
        List<Thrown> chain = Thrown.chainOf(severe);
        assertThat(chain).extracting(Thrown::className).containsExactly("java.lang.RuntimeException",
                "java.lang.IllegalStateException");
        assertThat(chain.get(1).message()).isEqualTo("no session for 0x1000001ac030001");
        Signature s = Signature.of(chain);
        assertThat(s.outer()).isEqualTo("java.lang.RuntimeException");
        assertThat(s.root()).isEqualTo("java.lang.IllegalStateException");
        assertThat(s.key()).isEqualTo("java.lang.RuntimeException caused by java.lang.IllegalStateException at "
                + "SessionTrackerImpl.checkSession < ZooKeeperServer.processTxn < SyncRequestProcessor.run");
    }

    @Test
    void oneExceptionAtTheLineNumbersOfTwoReleasesHasOneSignature() {
        List<LogLine> npes = withMessage(Excerpts.log("n1", Excerpts.PLANTED_NPE), "Exception when following");
        assertThat(npes).hasSize(2);
        assertThat(npes.get(0).more()).isNotEqualTo(npes.get(1).more());
        Signature a = Signature.of(Thrown.chainOf(npes.get(0)));
        assertThat(Signature.of(Thrown.chainOf(npes.get(1)))).isEqualTo(a);
        assertThat(a.key()).isEqualTo("java.lang.NullPointerException at Learner.syncWithLeader < "
                + "Follower.followLeader < QuorumPeer.run");
    }

    @Test
    void anExceptionNamedInAMessageIsReadWithoutFrames() {
        LogLine cannot = withMessage(Excerpts.log("n1", Excerpts.FLE), "n1: LOOKING: follower of 2: cannot connect").get(0);
        assertThat(Thrown.chainOf(cannot)).singleElement().satisfies(t -> {
            assertThat(t.className()).isEqualTo("java.net.ConnectException");
            assertThat(t.message()).isEqualTo("Connection refused");
            assertThat(t.frames()).isEmpty();
        });
    }

    @Test
    void aLineWithoutAnExceptionHasNoChain() {
        ServerLog log = Excerpts.log("n3", Excerpts.ZK395);
        assertThat(Thrown.chainOf(withMessage(log, "Peer state changed").get(0))).isEmpty();
        // "Got zxid 0x20000010b expected 0x1" names nothing that looks thrown
        assertThat(Thrown.chainOf(withMessage(log, "Got zxid").get(0))).isEmpty();
    }
}
