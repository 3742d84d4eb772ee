package io.zkchaos.checkers.state;

import static io.zkchaos.checkers.HistoryBuilder.map;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.CheckerCatalog;
import io.zkchaos.checkers.CheckerOptions;
import io.zkchaos.checkers.Checkers;
import io.zkchaos.checkers.HistoryBuilder;
import io.zkchaos.checkers.JsonAssert;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.history.MalformedHistoryException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FinalStateCheckerTest {

    private final FinalStateChecker checker = new FinalStateChecker();

    private static final long E1 = 1L << 32;
    private static final int P = 2_000_000;

    private static Map<String, Object> znode(String data, long version, long mzxid) {
        return map("data", data, "version", version, "cversion", 0L, "czxid", E1 + 1, "mzxid", mzxid, "pzxid",
                E1 + 1);
    }

    private static Map<String, Object> ephemeral(String owner) {
        Map<String, Object> z = znode("", 0, E1 + 7);
        z.put("czxid", E1 + 7);
        z.put("owner", owner);
        return z;
    }

    /** The same tree every test starts from. */
    private static Map<String, Object> tree() {
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("/", znode("", 0, 0));
        t.put("/zkchaos", znode("", 0, E1 + 1));
        t.put("/zkchaos/r0", znode("5", 3, E1 + 5));
        t.put("/zkchaos/r1", znode("6", 1, E1 + 6));
        return t;
    }

    private static Object read(String node, Map<String, Object> znodes) {
        return map("node", node, "round", 1L, "sessionTimeout", 4000L, "znodes", znodes);
    }

    /** One round: each server read in turn, starting at {@code ms}. */
    private static HistoryBuilder round(HistoryBuilder h, long ms, Object... nodeAndTree) {
        for (int i = 0; i < nodeAndTree.length; i += 2) {
            String node = (String) nodeAndTree[i];
            @SuppressWarnings("unchecked")
            Map<String, Object> t = (Map<String, Object>) nodeAndTree[i + 1];
            int p = P + Integer.parseInt(node.substring(1));
            h.invoke(p, "read-tree", map("node", node), ms + i).ok(p, read(node, t), ms + i + 1);
        }
        return h;
    }

    @Test
    void identicalTreesAreValid() {
        CheckResult r = checker.check(round(new HistoryBuilder(), 1000, "n1", tree(), "n2", tree(), "n3", tree())
                .build());
        assertThat(r.validity()).isEqualTo(Validity.VALID);
        assertThat(r.summary()).isEqualTo("3 servers hold identical trees of 4 znode(s) (zxid 0x100000006). "
                + "No ephemeral left.");
        FinalStateReport report = (FinalStateReport) r.details();
        assertThat(report.groups()).containsExactly(java.util.List.of("n1", "n2", "n3"));
        assertThat(report.servers()).extracting(FinalStateReport.Server::znodes).containsExactly(4, 4, 4);
        JsonAssert.toJson(r);
    }

    @Test
    void aServerWithOtherDataIsCaughtThoughNoClientReadIt() {
        Map<String, Object> planted = tree();
        planted.put("/zkchaos/r0", znode("99", 3, E1 + 5));
        CheckResult r = checker.check(round(new HistoryBuilder(), 1000, "n1", tree(), "n2", planted, "n3", tree())
                .build());
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(r.summary()).startsWith("the servers' final trees differ (n1, n3 | n2 agree among themselves) "
                + "in 1 znode(s): /zkchaos/r0: n1, n3 data \"5\"; n2 data \"99\".");
        FinalStateReport report = (FinalStateReport) r.details();
        assertThat(report.differences()).singleElement().satisfies(d -> {
            assertThat(d.path()).isEqualTo("/zkchaos/r0");
            assertThat(d.byNode().get("n2")).containsEntry("data", "99");
        });
        JsonAssert.toJson(r);
    }

    @Test
    void aMissingZnodeAndADifferentZxidAreDifferencesToo() {
        Map<String, Object> lost = tree();
        lost.remove("/zkchaos/r1");
        Map<String, Object> phantom = tree();
        phantom.put("/zkchaos/r0", znode("5", 3, E1 + 9)); // same data and version, written by another txn
        CheckResult r = checker.check(round(new HistoryBuilder(), 1000, "n1", tree(), "n2", lost, "n3", phantom)
                .build());
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        FinalStateReport report = (FinalStateReport) r.details();
        assertThat(report.totalDifferences()).isEqualTo(2);
        assertThat(report.differences()).extracting(TreeDifference::explanation).containsExactly(
                "/zkchaos/r0: n1, n2 mzxid 0x100000005; n3 mzxid 0x100000009",
                "/zkchaos/r1: present on n1, n3; missing on n2");
    }

    @Test
    void eachServersLastReadIsItsFinalTree() {
        Map<String, Object> behind = tree();
        behind.remove("/zkchaos/r1");
        HistoryBuilder h = round(new HistoryBuilder(), 1000, "n1", tree(), "n2", behind, "n3", tree());
        // a later round in which n2 has caught up
        CheckResult r = checker.check(round(h, 2000, "n1", tree(), "n2", tree(), "n3", tree()).build());
        assertThat(r.validity()).isEqualTo(Validity.VALID);
    }

    @Test
    void anEphemeralOfAnEndedSessionPastTheBoundIsAViolation() {
        Map<String, Object> withLeftover = tree();
        withLeftover.put("/zkchaos/election/n_0000000003", ephemeral("0x100000a2b0003"));
        HistoryBuilder h = round(new HistoryBuilder(), 1000, "n1", withLeftover, "n2", withLeftover, "n3",
                withLeftover);
        // read again 9.5 s later (session timeout 4 s + margin 5 s = 9 s): still there
        CheckResult r = checker.check(round(h, 10_500, "n1", withLeftover, "n2", withLeftover, "n3",
                withLeftover).build());
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(r.summary()).contains("1 ephemeral(s) of ended sessions outlived session timeout 4.000 s + "
                + "margin 5.000 s: /zkchaos/election/n_0000000003 (owner 0x100000a2b0003) on n1, n2, n3 9.500 s "
                + "after the sessions ended.");
        assertThat(((FinalStateReport) r.details()).ephemerals()).hasSize(3);
    }

    @Test
    void anEphemeralSeenOnlyBeforeTheBoundIsNotJudged() {
        Map<String, Object> withLeftover = tree();
        withLeftover.put("/zkchaos/election/n_0000000003", ephemeral("0x100000a2b0003"));
        CheckResult early = checker.check(round(new HistoryBuilder(), 1000, "n1", withLeftover, "n2",
                withLeftover, "n3", withLeftover).build());
        assertThat(early.validity()).isEqualTo(Validity.UNKNOWN);
        assertThat(early.summary()).contains("3 ephemeral(s) seen only before session timeout + margin had "
                + "passed: not judged.");
        // gone in the later round: the session expired in time
        CheckResult later = checker.check(round(round(new HistoryBuilder(), 1000, "n1", withLeftover, "n2",
                withLeftover, "n3", withLeftover), 6000, "n1", tree(), "n2", tree(), "n3", tree()).build());
        assertThat(later.validity()).isEqualTo(Validity.VALID);
    }

    @Test
    void anUnreadServerMakesTheVerdictUnknownUnlessTheOthersDisagree() {
        HistoryBuilder h = round(new HistoryBuilder(), 1000, "n1", tree(), "n2", tree());
        h.invoke(P + 3, "read-tree", map("node", "n3"), 1010).info(P + 3, 1020);
        CheckResult r = checker.check(h.build());
        assertThat(r.validity()).isEqualTo(Validity.UNKNOWN);
        assertThat(r.summary()).endsWith("Not read: n3 (timeout).");
        assertThat(((FinalStateReport) r.details()).unread()).containsExactly("n3");
    }

    @Test
    void noReadIsUnknownAndAMalformedReadIsNamed() {
        assertThat(checker.check(new HistoryBuilder().okOp(1, "read", null, 1L, 1).build()).validity())
                .isEqualTo(Validity.UNKNOWN);
        assertThatThrownBy(() -> checker.check(new HistoryBuilder()
                .okOp(P, "read-tree", map("node", "n1"), map("node", "n1", "znodes", java.util.List.of()), 1)
                .build()))
                .isInstanceOf(MalformedHistoryException.class)
                .hasMessageContaining("the read-tree result's \"znodes\" must be a map");
        assertThatThrownBy(() -> checker.check(new HistoryBuilder().invoke(P, "read-tree", null, 1).info(P, 2)
                .build()))
                .isInstanceOf(MalformedHistoryException.class).hasMessageContaining("must name its server");
    }

    @Test
    void theCatalogMakesIt() {
        CheckResult r = Checkers.runSafely(CheckerCatalog.create("final-state", CheckerOptions.defaults()),
                round(new HistoryBuilder(), 1, "n1", tree()).build());
        assertThat(r.checker()).isEqualTo("final-state");
        assertThat(r.validity()).isEqualTo(Validity.VALID);
    }

    // ---- ACLs (--acl per-client) ----

    private static final String SETUP_ACL = WorkloadAclsTest.AUDITOR + "," + WorkloadAclsTest.CLIENTS_SETUP;

    private static String clientAcl(String id) {
        return WorkloadAcls.canonical(WorkloadAcls.parse(String.join(",", WorkloadAclsTest.AUDITOR,
                WorkloadAclsTest.client(id), WorkloadAclsTest.CLIENTS_RW)));
    }

    /** The tree with ACLs: "/" open, the root and r0 setup's, r1 a client's. */
    private static Map<String, Object> aclTree() {
        Map<String, Object> t = tree();
        acl(t, "/", "world:anyone=cdrwa");
        acl(t, "/zkchaos", SETUP_ACL);
        acl(t, "/zkchaos/r0", SETUP_ACL);
        acl(t, "/zkchaos/r1", clientAcl("1a"));
        return t;
    }

    @SuppressWarnings("unchecked")
    private static void acl(Map<String, Object> tree, String path, String acl) {
        ((Map<String, Object>) tree.get(path)).put("acl", acl);
    }

    /** Each server's read as a per-client run records it. */
    private static HistoryBuilder perClientRound(HistoryBuilder h, Object... nodeAndTree) {
        for (int i = 0; i < nodeAndTree.length; i += 2) {
            String node = (String) nodeAndTree[i];
            int p = P + Integer.parseInt(node.substring(1));
            @SuppressWarnings("unchecked")
            Map<String, Object> value = (Map<String, Object>) read(node, (Map<String, Object>) nodeAndTree[i + 1]);
            value.put("acls", "per-client");
            value.put("aclRoot", "/zkchaos");
            h.invoke(p, "read-tree", map("node", node), 1000 + i).ok(p, value, 1001 + i);
        }
        return h;
    }

    @Test
    void identicalPerClientAclsAreValid() {
        CheckResult r = checker.check(perClientRound(new HistoryBuilder(), "n1", aclTree(), "n2", aclTree(), "n3",
                aclTree()).build());
        assertThat(r.validity()).isEqualTo(Validity.VALID);
        assertThat(r.summary()).contains("Every workload znode holds its per-client ACL.");
        assertThat(((FinalStateReport) r.details()).acls()).isEmpty();
    }

    @Test
    void anAclThatDiffersBetweenServersIsADifference() {
        Map<String, Object> planted = aclTree();
        acl(planted, "/zkchaos/r1", clientAcl("2b"));
        CheckResult r = checker.check(round(new HistoryBuilder(), 1000, "n1", aclTree(), "n2", planted, "n3",
                aclTree()).build());
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(((FinalStateReport) r.details()).differences()).singleElement().satisfies(d ->
                assertThat(d.explanation()).startsWith("/zkchaos/r1: n1, n3 acl \"").contains("; n2 acl \"")
                        .contains("zkchaos-c2b"));
        JsonAssert.toJson(r);
    }

    @Test
    void anAclTheRunNeverGivesIsCaughtThoughEveryServerAgrees() {
        Map<String, Object> opened = aclTree();
        acl(opened, "/zkchaos/r1", "world:anyone=cdrwa");
        CheckResult r = checker.check(perClientRound(new HistoryBuilder(), "n1", opened, "n2", opened, "n3",
                opened).build());
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(r.summary()).contains("1 workload znode(s) hold an ACL the run never gives: /zkchaos/r1 on n1, "
                + "n2, n3 has ACL \"world:anyone=cdrwa\": names world:anyone=cdrwa, not a digest identity of the run.");
        FinalStateReport report = (FinalStateReport) r.details();
        assertThat(report.acls()).singleElement().satisfies(a -> {
            assertThat(a.path()).isEqualTo("/zkchaos/r1");
            assertThat(a.nodes()).containsExactly("n1", "n2", "n3");
        });
        JsonAssert.toJson(r);
    }

    @Test
    void theSameTreeOutsideAPerClientRunIsNotHeldToItsAcls() {
        Map<String, Object> opened = aclTree();
        acl(opened, "/zkchaos/r1", "world:anyone=cdrwa");
        CheckResult r = checker.check(round(new HistoryBuilder(), 1000, "n1", opened, "n2", opened, "n3", opened)
                .build());
        assertThat(r.validity()).isEqualTo(Validity.VALID);
        assertThat(((FinalStateReport) r.details()).acls()).isEmpty();
    }

    @Test
    void znodesOutsideTheWorkloadsRootKeepTheirOwnAcls() {
        Map<String, Object> t = aclTree();
        t.put("/zkchaos-preload", znode("", 0, E1 + 2));
        acl(t, "/zkchaos-preload", "world:anyone=cdrwa");
        CheckResult r = checker.check(perClientRound(new HistoryBuilder(), "n1", t, "n2", t, "n3", t).build());
        assertThat(r.validity()).isEqualTo(Validity.VALID);
    }

    @Test
    void aPerClientResultWithoutItsRootIsMalformed() {
        HistoryBuilder h = new HistoryBuilder();
        @SuppressWarnings("unchecked")
        Map<String, Object> value = (Map<String, Object>) read("n1", aclTree());
        value.put("acls", "per-client");
        h.invoke(P + 1, "read-tree", map("node", "n1"), 1).ok(P + 1, value, 2);
        assertThatThrownBy(() -> checker.check(h.build())).isInstanceOf(MalformedHistoryException.class)
                .hasMessageContaining("aclRoot");
    }
}
