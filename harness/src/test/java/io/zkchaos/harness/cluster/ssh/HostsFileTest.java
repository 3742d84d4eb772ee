package io.zkchaos.harness.cluster.ssh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class HostsFileTest {

    @Test
    void aLineIsAHostWithItsOptionalUserPortAndAddressCommentsAndBlankLinesAside() {
        List<SshHost> hosts = HostsFile.parse(List.of(
                "# the ensemble",
                "db-1.example.com",
                "",
                "admin@db-2:2222   # a comment",
                "  10.0.0.3 10.1.0.3",
                "[fe80::1]:22"), "hosts.txt");
        assertThat(hosts).containsExactly(
                new SshHost("db-1.example.com", null, null, null),
                new SshHost("db-2", "admin", 2222, null),
                new SshHost("10.0.0.3", null, null, "10.1.0.3"),
                new SshHost("fe80::1", null, 22, null));
        assertThat(hosts.get(1)).hasToString("admin@db-2:2222");
    }

    @Test
    void whatIsWrongIsNamedWithItsLine() {
        assertThatThrownBy(() -> HostsFile.parse(List.of("a", "b:99999"), "hosts.txt"))
                .hasMessageContaining("hosts.txt line 2").hasMessageContaining("port must be 1..65535");
        assertThatThrownBy(() -> HostsFile.parse(List.of("a", "a"), "hosts.txt"))
                .hasMessageContaining("hosts.txt line 2").hasMessageContaining("named twice");
        assertThatThrownBy(() -> HostsFile.parse(List.of("a b c"), "h")).hasMessageContaining("too many words");
        assertThatThrownBy(() -> HostsFile.parse(List.of("@a"), "h")).hasMessageContaining("empty user");
        assertThatThrownBy(() -> HostsFile.parse(List.of("# only a comment", ""), "hosts.txt"))
                .hasMessageContaining("hosts.txt: names no host");
    }
}
