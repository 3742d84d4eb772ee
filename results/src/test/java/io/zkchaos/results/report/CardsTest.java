package io.zkchaos.results.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Findings;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.history.History;
import io.zkchaos.results.FindingSamples;
import io.zkchaos.results.Json;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** Each kind of finding is drawn by its type, whatever the checker that found it is called. */
class CardsTest {

    private static CheckerCard card(Findings findings) {
        CheckResult r = CheckResult.of("a-checker-named-anything", Validity.INVALID, "see the findings", findings);
        List<CheckerCard> cards = Cards.of(r, new HistoryIndex(History.of(List.of())));
        assertThat(cards).hasSize(1);
        return cards.get(0);
    }

    @Test
    void everyKindOfFindingHasItsOwnCard() {
        Map<String, Consumer<CheckerCard>> expected = new java.util.HashMap<>(Map.of(
                "linearizability", c -> {
                    assertThat(c.linear().failing().invokeEntry()).isEqualTo(4);
                    assertThat(c.linear().concurrent()).extracting(CheckerCard.OpRow::completedAt)
                            .containsExactly("never");
                    assertThat(c.linear().entries()).isEqualTo("4,7,2,0,1");
                },
                "single-leader", c -> {
                    assertThat(c.overlaps()).extracting(CheckerCard.OverlapRow::entries).containsExactly("1,5");
                    assertThat(c.failovers()).extracting(CheckerCard.FailoverRow::withinBound)
                            .containsExactly("yes", "cannot tell");
                    assertThat(c.findings()).flatExtracting(Text::entries).containsExactly(5L);
                },
                "set", c -> {
                    assertThat(c.lost()).extracting(CheckerCard.LostRow::value, CheckerCard.LostRow::lackingIn)
                            .containsExactly(org.assertj.core.groups.Tuple.tuple("7", "n3"));
                    assertThat(c.unexpected()).extracting(CheckerCard.UnexpectedRow::value).containsExactly("\"x\"");
                    assertThat(c.findings()).flatExtracting(Text::entries).containsExactly(24L);
                },
                "read-model", c -> {
                    assertThat(c.stale()).extracting(CheckerCard.StaleRow::readEntry).containsExactly(9L);
                    assertThat(c.findings()).flatExtracting(Text::entries).containsExactly(11L, 8L);
                },
                "fenced-writes", c -> assertThat(c.findings()).flatExtracting(Text::entries)
                        .containsExactly(12L, 10L),
                "log-prefix", c -> assertThat(c.findings()).flatExtracting(Text::entries)
                        .as("the read the finding is about, not the other one it names").containsExactly(15L),
                "final-state", c -> {
                    assertThat(c.facts()).contains(new CheckerCard.Fact("znodes that differ", "1"),
                            new CheckerCard.Fact("not read", "n2"));
                    assertThat(c.findings()).extracting(t -> t.segments().get(0).text())
                            .containsExactly("/zkchaos/k1 holds 2 on n1 but 1 on n3",
                                    "ephemeral /zkchaos/e of session 0x1 still on n1 (read at index ");
                    assertThat(c.findings()).flatExtracting(Text::entries).containsExactly(30L);
                },
                "evidence", c -> assertThat(c.facts()).containsExactly(
                        new CheckerCard.Fact("requirements met", "1 of 2")),
                "checker-error", c -> assertThat(c.findings()).extracting(t -> t.segments().get(0).text())
                        .containsExactly("the checker threw java.lang.IllegalStateException: broke"),
                "untyped", c -> {
                    assertThat(c.facts()).isEmpty();
                    assertThat(c.findings()).isEmpty();
                    assertThat(c.details()).contains("\"values\"").doesNotContain("kind");
                }));
        expected.put("watches", c -> {
            assertThat(c.facts()).contains(new CheckerCard.Fact("events delivered", "9"));
            assertThat(c.findings()).flatExtracting(Text::entries).containsExactly(14L, 12L);
        });
        expected.put("session-guarantees", c -> {
            assertThat(c.facts()).contains(new CheckerCard.Fact("violations", "1"),
                    new CheckerCard.Fact("cut-off sessions excused", "1"));
            assertThat(c.findings()).flatExtracting(Text::entries).containsExactly(40L, 31L);
        });
        expected.put("sequential-znodes", c -> {
            assertThat(c.facts()).contains(new CheckerCard.Fact("final reads", "n1, n2, n3"));
            assertThat(c.findings()).flatExtracting(Text::entries).containsExactly(7L, 5L);
        });
        expected.put("multi-txn", c -> {
            assertThat(c.facts()).contains(new CheckerCard.Fact("stale reads (allowed)", "1"));
            assertThat(c.findings()).extracting(t -> t.segments().get(0).text())
                    .containsExactly("aborted-read: the read of process 2 (index ", "stale (allowed): the read of "
                            + "process 2 (index ");
            assertThat(c.findings().get(0).entries()).containsExactly(12L, 8L);
        });
        expected.put("recovery", c -> { // Map.of takes ten pairs at most
            assertThat(c.facts()).contains(new CheckerCard.Fact("servers serving", "1 of 2"));
            assertThat(c.findings()).extracting(t -> t.segments().get(0).text()).containsExactly(
                    "n3 did not serve within 60.0 s of the final heal (last seen: RUNNING, unreachable)",
                    "the end of n3's log:\njava.io.IOException: No snapshot found");
        });
        expected.put("availability", c -> {
            assertThat(c.facts()).contains(new CheckerCard.Fact("stretches excused", "1"));
            assertThat(c.findings()).extracting(t -> t.segments().get(0).text()).singleElement().asString()
                    .startsWith("n1 acknowledged no probe write for").contains("n1, n2, n3 were whole");
            assertThat(c.findings()).flatExtracting(Text::entries).as("the last acknowledged write").containsExactly(
                    120L);
            assertThat(c.inServersSection()).isTrue();
            AvailabilityView a = c.availability();
            assertThat(a.stalls()).extracting(AvailabilityView.StallRow::node, AvailabilityView.StallRow::gap,
                    AvailabilityView.StallRow::lastAck, AvailabilityView.StallRow::lastAckEntry)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("n1", "12.00 s", "10.000 s", 120L));
            assertThat(a.judged()).isEqualTo("1 stretch, 28.00 s in all");
            assertThat(a.excused()).extracting(AvailabilityView.StretchRow::from, AvailabilityView.StretchRow::whole,
                    AvailabilityView.StretchRow::faults).containsExactly(org.assertj.core.groups.Tuple.tuple(
                    "30.000 s", "n3", "halves on n1, n2"));
        });
        expected.put("churn-ephemerals", c -> {
            assertThat(c.facts()).contains(new CheckerCard.Fact("sessions ended", "close 3, crash 1, expire 2"));
            assertThat(c.findings()).flatExtracting(Text::entries).containsExactly(52L);
        });
        expected.put("servers", c -> {
            assertThat(c.findings()).extracting(t -> t.segments().get(0).text())
                    .containsExactly("n1 exited by itself at 0.00 s");
            assertThat(c.facts()).contains(new CheckerCard.Fact("signatures", "2 (1 error)"),
                    new CheckerCard.Fact("crashes", "1 (0 excused)"), new CheckerCard.Fact("logs read", "1 of 3"));
            assertThat(c.inServersSection()).isTrue();
            ServersView v = c.servers();
            assertThat(v.crashes()).extracting(ServersView.CrashRow::node, ServersView.CrashRow::exit,
                    ServersView.CrashRow::nemesis, ServersView.CrashRow::id).containsExactly(
                    org.assertj.core.groups.Tuple.tuple("n1", "exit code 1", "kill-leader on n2 since 4.2 s",
                            "srv-crash-0"));
            assertThat(v.crashLoops()).as("the sample's crash loop is excused").isEmpty();
            assertThat(v.excused()).extracting(ServersView.ExcusedRow::kind, ServersView.ExcusedRow::what,
                    ServersView.ExcusedRow::excusedBy).containsExactly(org.assertj.core.groups.Tuple.tuple(
                    "crash-loop", "crash loop", "disk-full on n1 (1.00 s to 2.00 s, excuses exit for 5.00 s after)"));
            assertThat(v.errors()).extracting(ServersView.SignatureRow::classes, ServersView.SignatureRow::frames,
                    ServersView.SignatureRow::count).containsExactly(org.assertj.core.groups.Tuple.tuple(
                    "java.lang.NullPointerException", List.of("org.apache.zookeeper.server.quorum.Learner"
                            + ".syncWithLeader"), 2));
            assertThat(v.signatures()).extracting(ServersView.SignatureRow::verdict, ServersView.SignatureRow::id,
                    ServersView.SignatureRow::rule).containsExactly(
                    org.assertj.core.groups.Tuple.tuple("error", "srv-sig-0", "server-log-rules.tsv:27"),
                    org.assertj.core.groups.Tuple.tuple("other", "srv-sig-1", ""));
            assertThat(v.rejoins()).extracting(ServersView.RejoinRow::node, ServersView.RejoinRow::syncs,
                    ServersView.RejoinRow::syncNanos).containsExactly(org.assertj.core.groups.Tuple.tuple("n1", 3,
                    List.of(9_953_000_000L)));
            assertThat(v.missingLogs()).containsExactly("n3: no server.log");
            assertThat(v.rejoinRule()).isEqualTo("3 syncs within 60.00 s without serving make a loop");
            assertThat(c.details()).contains("\"kind\" : \"servers\"").contains("Learner.syncWithLeader");
        });
        assertThat(expected.keySet()).containsExactlyInAnyOrderElementsOf(Findings.kinds().keySet());
        FindingSamples.all().forEach((kind, findings) -> {
            CheckerCard c = card(findings);
            assertThat(c.checker()).isEqualTo("a-checker-named-anything");
            assertThat(c.verdict()).isEqualTo("invalid");
            expected.get(kind).accept(c);
        });
    }

    @Test
    void everyKindOfFindingIsInTheCardRegistryOnce() {
        assertThat(Cards.REGISTRY.keySet()).as("a findings record without a card would get the plain card")
                .containsExactlyInAnyOrderElementsOf(Findings.kinds().values());
        Card<?> card = Cards.REGISTRY.get(io.zkchaos.checkers.set.SetReport.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Card.registry(card, card))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("two cards for")
                .hasMessageContaining("SetReport");
    }

    @Test
    void detailsSavedWithoutAKindGetAPlainCardEvenWhenTheirFieldsLookLikeAKind() throws Exception {
        // A set checker's details as a zk-chaos before findings had a kind saved them.
        Map<String, Object> saved = Json.MAPPER.convertValue(FindingSamples.set(), Map.class);
        saved.remove("kind");
        CheckerCard old = card(new Findings.Untyped(saved));
        assertThat(old.lost()).isEmpty();
        assertThat(old.facts()).isEmpty();
        assertThat(old.details()).contains("\"lost\"").contains("\"finalReads\"");

        CheckerCard typed = card(FindingSamples.set());
        assertThat(typed.lost()).hasSize(1);
        assertThat(typed.details()).contains("\"kind\" : \"set\"");
    }

    @Test
    void aVerdictComposedOfPartsHasACardForEach() {
        CheckResult run = new CheckResult("register", Validity.INVALID, "one part failed", null, List.of(
                CheckResult.of("no-lost-commit", Validity.INVALID, "lost 7", FindingSamples.set()),
                CheckResult.of("single-leader", Validity.VALID, "fine", FindingSamples.singleLeader())));
        List<CheckerCard> cards = Cards.of(run, new HistoryIndex(History.of(List.of())));
        assertThat(cards).extracting(CheckerCard::checker, CheckerCard::depth).containsExactly(
                org.assertj.core.groups.Tuple.tuple("register", 0), org.assertj.core.groups.Tuple.tuple(
                        "no-lost-commit", 1), org.assertj.core.groups.Tuple.tuple("single-leader", 1));
        assertThat(cards.get(0).details()).isEmpty();
        assertThat(Cards.hasUntyped(run)).isFalse();
    }
}
