package io.zkchaos.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.checkers.state.WorkloadAcls;
import io.zkchaos.workloads.process.ClientSpec;
import java.util.List;
import java.util.Map;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;
import org.junit.jupiter.api.Test;

class ZnodeAclsTest {

    @Test
    void openIsZooKeepersOpenAcl() {
        assertThat(ZnodeAcls.OPEN.forSetup()).isEqualTo(ZooDefs.Ids.OPEN_ACL_UNSAFE);
        assertThat(ZnodeAcls.OPEN.forClient("zkchaos-c1")).isEqualTo(ZooDefs.Ids.OPEN_ACL_UNSAFE);
        assertThat(ZnodeAcls.OPEN.clientAuth("zkchaos-c1")).isEmpty();
        assertThat(ZnodeAcls.canonical(ZooDefs.Ids.OPEN_ACL_UNSAFE)).isEqualTo("world:anyone=cdrwa");
    }

    @Test
    void aClientsAclNamesItsIdentityTheAuditorAndTheClientsReadWrite() {
        List<ACL> acl = ZnodeAcls.PER_CLIENT.forClient("zkchaos-c1a2b");
        assertThat(acl).extracting(a -> a.getId().getScheme()).containsOnly("digest");
        assertThat(acl).extracting(a -> a.getId().getId().split(":")[0] + "=" + WorkloadAcls.letters(a.getPerms()))
                .containsExactlyInAnyOrder("zkchaos-auditor=cdrwa", "zkchaos-c1a2b=cdrwa", "zkchaos-clients=rw");
        String text = ZnodeAcls.canonical(acl);
        assertThat(WorkloadAcls.unexpected(text)).as(text).isNull();
        assertThat(ZnodeAcls.canonical(ZnodeAcls.PER_CLIENT.forClient("zkchaos-c9"))).as("one ACL per client")
                .isNotEqualTo(text);
    }

    @Test
    void setupsAclLetsEveryClientCreateDeleteReadAndWriteButNotAdminister() {
        List<ACL> acl = ZnodeAcls.PER_CLIENT.forSetup();
        assertThat(acl).extracting(a -> a.getId().getId().split(":")[0] + "=" + WorkloadAcls.letters(a.getPerms()))
                .containsExactlyInAnyOrder("zkchaos-auditor=cdrwa", "zkchaos-clients=cdrw");
        assertThat(acl).filteredOn(a -> a.getId().getId().startsWith("zkchaos-clients:"))
                .extracting(ACL::getPerms).containsExactly(ZooDefs.Perms.ALL & ~ZooDefs.Perms.ADMIN);
        assertThat(WorkloadAcls.unexpected(ZnodeAcls.canonical(acl))).isNull();
    }

    @Test
    void theDigestIsWhatTheServersDigestProviderComputesFromTheCredentials() throws Exception {
        // the server authenticates "user:password" by this digest: the ACL and the credentials must match
        byte[] credentials = ZnodeAcls.PER_CLIENT.clientAuth("zkchaos-c7").get(0);
        assertThat(ZnodeAcls.digest("zkchaos-c7"))
                .isEqualTo(DigestAuthenticationProvider.generateDigest(new String(credentials)))
                .startsWith("zkchaos-c7:");
        assertThat(ZnodeAcls.PER_CLIENT.clientAuth("zkchaos-c7")).extracting(String::new)
                .extracting(c -> c.split(":")[0]).containsExactly("zkchaos-c7", "zkchaos-clients");
    }

    @Test
    void theAclsAreListsZooKeepersCreateAccepts() {
        // ZooKeeper.create validates an ACL with contains(null), which List.of's lists answer with an exception
        assertThat(ZnodeAcls.PER_CLIENT.forSetup().contains(null)).isFalse();
        assertThat(ZnodeAcls.PER_CLIENT.forClient("zkchaos-c1").contains(null)).isFalse();
    }

    @Test
    void labelsParseBackAndAnythingElseIsRefusedNamingTheChoices() {
        assertThat(ZnodeAcls.parse("per-client")).isEqualTo(ZnodeAcls.PER_CLIENT);
        assertThat(ZnodeAcls.parse("open")).isEqualTo(ZnodeAcls.OPEN);
        assertThatThrownBy(() -> ZnodeAcls.parse("closed")).hasMessage("acl must be open or per-client, got "
                + "'closed'");
    }

    @Test
    void aClientProcessGetsTheRunsAcls() {
        Target t = Target.of("h:1", Map.of("n1", "h:1")).withAcls(ZnodeAcls.PER_CLIENT);
        ClientSpec spec = ClientSpec.of("set", WorkloadOptions.defaults(), t, 1, 2, 1, 3);
        assertThat(ClientSpec.fromJson(spec.toJson()).target().acls()).isEqualTo(ZnodeAcls.PER_CLIENT);
        assertThat(ClientSpec.fromJson(spec.toJson()).startingAt(5).target().acls()).isEqualTo(ZnodeAcls.PER_CLIENT);
        String older = spec.toJson().replace(",\"acls\":\"per-client\"", "");
        assertThat(older).doesNotContain("acls");
        assertThat(ClientSpec.fromJson(older).target().acls()).isEqualTo(ZnodeAcls.OPEN);
    }
}
