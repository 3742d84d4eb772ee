package io.zkchaos.checkers.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class WorkloadAclsTest {

    static final String AUDITOR = "digest:zkchaos-auditor:aGFzaA==" + "=cdrwa";
    static final String CLIENTS_SETUP = "digest:zkchaos-clients:Y2xpZW50cw==" + "=cdrw";
    static final String CLIENTS_RW = "digest:zkchaos-clients:Y2xpZW50cw==" + "=rw";

    static String client(String id) {
        return "digest:zkchaos-c" + id + ":b3du=cdrwa";
    }

    @Test
    void permissionBitsAndLettersGoBothWays() {
        assertThat(WorkloadAcls.letters(31)).isEqualTo("cdrwa");
        assertThat(WorkloadAcls.letters(1 | 2)).isEqualTo("rw");
        assertThat(WorkloadAcls.letters(1 | 16)).isEqualTo("ra");
        assertThat(WorkloadAcls.bits("cdrw")).isEqualTo(4 | 8 | 1 | 2);
        assertThatThrownBy(() -> WorkloadAcls.bits("rx")).hasMessageContaining("'x'");
    }

    @Test
    void canonicalTextIsSortedAndReadsBack() {
        List<WorkloadAcls.Entry> entries = List.of(new WorkloadAcls.Entry("world", "anyone", "cdrwa"),
                new WorkloadAcls.Entry("digest", "zkchaos-auditor:aGFzaA==", "cdrwa"));
        String text = WorkloadAcls.canonical(entries);
        assertThat(text).isEqualTo("digest:zkchaos-auditor:aGFzaA===cdrwa,world:anyone=cdrwa");
        assertThat(WorkloadAcls.parse(text)).containsExactlyInAnyOrderElementsOf(entries);
        assertThat(WorkloadAcls.parse(text).get(0).digestUser()).isEqualTo("zkchaos-auditor");
    }

    @Test
    void setupsAndOneClientsShapesAreExpected() {
        assertThat(WorkloadAcls.unexpected(String.join(",", AUDITOR, CLIENTS_SETUP))).isNull();
        assertThat(WorkloadAcls.unexpected(String.join(",", AUDITOR, client("1f2e"), CLIENTS_RW))).isNull();
    }

    @Test
    void everyOtherAclIsNamedWithItsProblem() {
        assertThat(WorkloadAcls.unexpected("world:anyone=cdrwa")).contains("not a digest identity");
        assertThat(WorkloadAcls.unexpected(CLIENTS_SETUP)).contains("no client identity");
        assertThat(WorkloadAcls.unexpected(String.join(",", AUDITOR, client("1"), client("2"), CLIENTS_RW)))
                .contains("2 client identities");
        assertThat(WorkloadAcls.unexpected(String.join(",", client("1"), CLIENTS_RW)))
                .contains("not the ACL client zkchaos-c1 creates with");
        assertThat(WorkloadAcls.unexpected(String.join(",", AUDITOR, client("1"), CLIENTS_SETUP)))
                .as("the clients' identity may not delete a client's children").contains("zkchaos-c1");
        assertThat(WorkloadAcls.unexpected("")).contains("no client identity");
        assertThat(WorkloadAcls.unexpected("garbage")).contains("not an ACL entry");
    }

    @Test
    void theSharedIdentityIsNoClient() {
        assertThat(WorkloadAcls.isClient(WorkloadAcls.CLIENTS)).isFalse();
        assertThat(WorkloadAcls.isClient(WorkloadAcls.CLIENT_PREFIX)).isFalse();
        assertThat(WorkloadAcls.isClient(WorkloadAcls.AUDITOR)).isFalse();
        assertThat(WorkloadAcls.isClient("zkchaos-c1a2b")).isTrue();
    }
}
