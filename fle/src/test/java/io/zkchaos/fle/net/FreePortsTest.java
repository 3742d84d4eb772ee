package io.zkchaos.fle.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FreePortsTest {

    @TempDir
    Path dir;

    @Test
    void portsComeFromBelowTheEphemeralRangeAndAreNeverHandedOutTwice() {
        FreePorts ports = new FreePorts(32_768, new Random(1));
        List<Integer> drawn = ports.onLoopback(200);
        assertThat(drawn).allSatisfy(p -> assertThat(p).isBetween(FreePorts.LOWEST, 32_767));
        assertThat(new HashSet<>(drawn)).hasSize(200);
    }

    @Test
    void aPortInUseIsNotHandedOut() throws IOException {
        // a range of exactly one thousand ports, all but one held here: the free one is the only answer
        FreePorts ports = new FreePorts(FreePorts.LOWEST + 1_000, new Random(2));
        Set<ServerSocket> held = new HashSet<>();
        int left = -1;
        try {
            for (int p = ports.low(); p < ports.high(); p++) {
                try {
                    ServerSocket s = new ServerSocket();
                    s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), p));
                    held.add(s);
                } catch (IOException inUse) {
                    // taken by someone else already: just as good
                }
            }
            ServerSocket freed = held.iterator().next();
            left = freed.getLocalPort();
            freed.close();
            held.remove(freed);
            int found = left;
            // 500 random draws from 1000 ports can miss the one free port: keep asking until it is found
            int got = -1;
            for (int i = 0; i < 60 && got != found; i++) {
                try {
                    got = ports.freeOn(List.of("127.0.0.1"));
                } catch (IllegalStateException none) {
                    assertThat(none).hasMessageContaining("no port in");
                }
            }
            assertThat(got).isEqualTo(found);
        } finally {
            for (ServerSocket s : held) {
                s.close();
            }
        }
    }

    @Test
    void theRangeIsReadFromTheKernelAndANarrowRangeIsRefusedByName() throws IOException {
        Path range = dir.resolve("ip_local_port_range");
        Files.writeString(range, "40000\t60999\n");
        assertThat(FreePorts.ephemeralLow(range)).isEqualTo(40_000);
        assertThat(FreePorts.ephemeralLow(dir.resolve("absent"))).isEqualTo(32_768);
        Path kernel = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
        if (Files.exists(kernel)) {
            assertThat(FreePorts.ephemeralLow(kernel)).isEqualTo(Integer.parseInt(
                    Files.readAllLines(kernel).get(0).trim().split("\\s+")[0]));
        }
        assertThatThrownBy(() -> new FreePorts(10_500, new Random()))
                .hasMessageContaining("ephemeral port range starts at 10500");
    }
}
