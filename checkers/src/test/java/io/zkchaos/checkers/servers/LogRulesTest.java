package io.zkchaos.checkers.servers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.checkers.servers.LogRule.Verdict;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogRulesTest {

    @TempDir
    Path tmp;

    private static LogLine entry(String file, String start) {
        return Excerpts.log("n1", file).entries().stream().filter(e -> e.message().startsWith(start)).findFirst()
                .orElseThrow();
    }

    @Test
    void theShippedRulesLoadAndExcuseAProgrammingErrorOnlyWithItsRootCause() {
        List<LogRule> rules = LogRules.builtIn().rules();
        assertThat(rules).isNotEmpty();
        assertThat(rules).filteredOn(r -> r.verdict() == Verdict.EXCUSED).allSatisfy(r -> {
            assertThat(r.pattern()).as("an excuse names where it happens").isNotNull();
            assertThat(r.why()).as("and why it is harmless, in the server's source").contains("ZooKeeper")
                    .containsPattern("[A-Z]\\w+\\.\\w+").hasSizeGreaterThan(120);
        });
        assertThat(rules).allMatch(r -> r.source().startsWith(LogRules.BUILT_IN + ":"));
        assertThat(rules.stream().filter(r -> r.verdict() == Verdict.ERROR).map(LogRule::className)).contains(
                "java.lang.NullPointerException", "java.lang.IllegalStateException",
                "java.lang.IllegalArgumentException", "java.lang.ClassCastException",
                "java.lang.IndexOutOfBoundsException", "java.util.ConcurrentModificationException",
                "java.util.NoSuchElementException", "java.lang.AssertionError",
                "java.lang.UnsupportedOperationException");
    }

    @Test
    void theSelectorsCancelledKeyRaceIsExcusedWithItsCauseAndACancelledKeyElsewhereIsAnError() {
        LogRules rules = LogRules.builtIn();
        LogLine race = entry("zk-3.8.6-cancelled-key-n3.log", "Ignoring unexpected runtime exception");
        LogRules.Judged j = rules.judge(race).orElseThrow();
        assertThat(j.verdict()).isEqualTo(Verdict.EXCUSED);
        assertThat(j.rule().why()).contains("handleIO").contains("benign race");

        LogLine elsewhere = ServerLog.parse("n1", List.of("==== zkchaos: starting n1 at 2026-12-06T07:48:31.564Z",
                "2026-12-06T07:49:50.311Z WARN  [Sync] Learner - Exception when following the leader",
                "java.nio.channels.CancelledKeyException: null",
                "\tat org.apache.zookeeper.server.quorum.Learner.syncWithLeader(Learner.java:657)")).entries().get(0);
        assertThat(rules.judge(elsewhere).orElseThrow().verdict()).as("an IllegalStateException elsewhere")
                .isEqualTo(Verdict.ERROR);
    }

    @Test
    void anIoExceptionIsExpectedAndItsJdkSubclassesToo() {
        LogRules rules = LogRules.builtIn();
        LogLine reset = entry(Excerpts.ZK395, "Exception when following the leader");
        LogRules.Judged j = rules.judge(reset).orElseThrow();
        assertThat(j.chain().get(0).className()).isEqualTo("java.net.SocketException");
        assertThat(j.verdict()).isEqualTo(Verdict.EXPECTED);
        assertThat(j.rule().className()).isEqualTo("java.io.IOException");
        assertThat(LogRules.names("java.lang.IndexOutOfBoundsException", "java.lang.ArrayIndexOutOfBoundsException"))
                .isTrue();
        assertThat(LogRules.names("java.io.IOException", "java.lang.NullPointerException")).isFalse();
        // ZooKeeper's own classes are not on this classpath: only an exact or simple name names them
        assertThat(LogRules.names("java.io.IOException", "org.apache.zookeeper.server.ServerCnxn$EndOfStreamException"))
                .isFalse();
        assertThat(LogRules.names("EndOfStreamException", "org.apache.zookeeper.server.ServerCnxn$EndOfStreamException"))
                .isFalse();
        assertThat(LogRules.names("ServerCnxn$EndOfStreamException",
                "org.apache.zookeeper.server.ServerCnxn$EndOfStreamException")).isTrue();
    }

    @Test
    void aPlantedNullPointerExceptionIsAnErrorAndAGiveUpLineIsJudgedByItsRootCause() {
        LogRules rules = LogRules.builtIn();
        assertThat(rules.judge(entry(Excerpts.PLANTED_NPE, "Exception when following")).orElseThrow().verdict())
                .isEqualTo(Verdict.ERROR);
        LogRules.Judged severe = rules.judge(entry(Excerpts.PLANTED_NPE, "Severe unrecoverable error, from"))
                .orElseThrow();
        assertThat(severe.verdict()).isEqualTo(Verdict.ERROR);
        assertThat(severe.rule().className()).isEqualTo("java.lang.IllegalStateException");
        LogRules.Judged exiting = rules.judge(entry(Excerpts.PLANTED_NPE, "Severe unrecoverable error, exiting"))
                .orElseThrow();
        assertThat(exiting.verdict()).isEqualTo(Verdict.OTHER);
        assertThat(exiting.signature().key()).isEqualTo("line \"Severe unrecoverable error\"");
    }

    @Test
    void anExceptionNoRuleNamesIsOther() {
        LogLine line = ServerLog.parse("n1", List.of("06:11:01.000 WARN  [main] X - oops",
                "org.apache.zookeeper.KeeperException$NoNodeException: KeeperErrorCode = NoNode",
                "\tat org.apache.zookeeper.server.DataTree.getNode(DataTree.java:10)")).entries().get(0);
        LogRules.Judged j = LogRules.builtIn().judge(line).orElseThrow();
        assertThat(j.verdict()).isEqualTo(Verdict.OTHER);
        assertThat(j.rule()).isNull();
    }

    @Test
    void syncAndServingLinesOfEveryFormatAreNamed() {
        LogRules rules = LogRules.builtIn();
        assertThat(rules.judge(entry(Excerpts.ZK395, "Peer state changed: following - broadcast")).orElseThrow()
                .verdict()).isEqualTo(Verdict.SERVING);
        assertThat(rules.judge(entry(Excerpts.ZK357, "Getting a diff from the leader")).orElseThrow().verdict())
                .isEqualTo(Verdict.SYNC);
        assertThat(rules.judge(entry(Excerpts.ZK357, "Learner received UPTODATE message")).orElseThrow().verdict())
                .isEqualTo(Verdict.SERVING);
        ServerLog fle = ServerLog.parse("n1", List.of(
                "06:16:30.001 INFO  [n1-main] Follower - n1: sync with leader n2: DIFF from 1.4 to 1.9",
                "06:16:30.002 INFO  [n1-main] Follower - serving as follower of n2 in epoch 1",
                "06:16:30.003 INFO  [n1-main] QuorumPeer - peer state LOOKING after a timeout"));
        assertThat(fle.entries().stream().map(e -> rules.judge(e).map(LogRules.Judged::verdict).orElse(null)))
                .containsExactly(Verdict.SYNC, Verdict.SERVING, null);
        assertThat(rules.judge(entry(Excerpts.ZK395, "Reading configuration"))).isEmpty();
    }

    @Test
    void aUsersRulesComeFirstAndAnExcuseCarriesItsReason() throws Exception {
        Path file = tmp.resolve("mine.tsv");
        Files.writeString(file, "# my rules\n\nLearner\\.syncWithLeader\tjava.lang.NullPointerException\texcused\t"
                + "ZOOKEEPER-9999: qp is null when the leader closes mid-sync (Learner.java:641)\n");
        LogRules rules = LogRules.withUserFile(file);
        LogRules.Judged j = rules.judge(entry(Excerpts.PLANTED_NPE, "Exception when following")).orElseThrow();
        assertThat(j.verdict()).isEqualTo(Verdict.EXCUSED);
        assertThat(j.rule().why()).startsWith("ZOOKEEPER-9999");
        assertThat(j.rule().source()).isEqualTo(file + ":3");
        assertThat(rules.rules().size()).isEqualTo(LogRules.builtIn().rules().size() + 1);
        // the other NPE, elsewhere, is still an error
        assertThat(rules.judge(entry(Excerpts.PLANTED_NPE, "Severe unrecoverable error, from")).orElseThrow()
                .verdict()).isEqualTo(Verdict.ERROR);
    }

    @Test
    void aBadRulesFileIsAnErrorNamingItsFileAndLine() throws Exception {
        assertThatThrownBy(() -> LogRules.parse("r.tsv", List.of("# c", "x\ty\terror")))
                .hasMessageStartingWith("r.tsv line 2: expected 4 fields");
        assertThatThrownBy(() -> LogRules.parse("r.tsv", List.of("*\tjava.lang.Foo\terorr\twhy")))
                .hasMessageStartingWith("r.tsv line 1: unknown verdict 'erorr'").hasMessageContaining("excused");
        assertThatThrownBy(() -> LogRules.parse("r.tsv", List.of("(unclosed\t*\terror\twhy")))
                .hasMessageStartingWith("r.tsv line 1: the pattern is no regular expression");
        assertThatThrownBy(() -> LogRules.parse("r.tsv", List.of("Getting a diff\tjava.io.IOException\tsync\twhy")))
                .hasMessageStartingWith("r.tsv line 1: a sync rule names a line").hasMessageContaining("must be -");
        assertThatThrownBy(() -> LogRules.parse("r.tsv", List.of("*\tNullPointerException\texcused\t ")))
                .hasMessageStartingWith("r.tsv line 1: the why is empty").hasMessageContaining("root cause");
        assertThatThrownBy(() -> LogRules.parse("r.tsv", List.of("*\tnot a class\terror\twhy")))
                .hasMessageStartingWith("r.tsv line 1: the class must be");
        assertThatThrownBy(() -> LogRules.parse("r.tsv", List.of("*\t-\tother\twhy")))
                .hasMessageStartingWith("r.tsv line 1: a rule for lines without an exception needs a pattern");
        Path bad = tmp.resolve("bad.tsv");
        Files.writeString(bad, "*\t*\tmaybe\twhy\n");
        assertThatThrownBy(() -> LogRules.withUserFile(bad)).hasMessageStartingWith(bad + " line 1: unknown verdict");
        assertThatThrownBy(() -> LogRules.withUserFile(tmp.resolve("absent.tsv")))
                .hasMessageContaining("absent.tsv");
    }
}
