package io.zkchaos.harness.cluster.local;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/** The established TCP connections of a process, read from /proc (Linux), as remote addresses. */
final class Sockets {

    private Sockets() {
    }

    /** Remote addresses of the process's TCP (IPv4) sockets that are ESTABLISHED. */
    static List<InetSocketAddress> remotes(long pid) throws IOException {
        Set<String> inodes = new HashSet<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            for (Path fd : fds.toList()) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(target.substring(8, target.length() - 1));
                    }
                } catch (IOException e) {
                    // fd closed meanwhile
                }
            }
        }
        List<InetSocketAddress> out = new ArrayList<>();
        // Java opens IPv6 sockets by default, so IPv4 peers show up in tcp6 as ::ffff:a.b.c.d.
        for (String table : List.of("tcp", "tcp6")) {
            Path file = Path.of("/proc", Long.toString(pid), "net", table);
            if (!Files.exists(file)) {
                continue;
            }
            List<String> lines = Files.readAllLines(file);
            for (String line : lines.subList(1, lines.size())) {
                String[] f = line.trim().split("\\s+");
                // f[2] remote addr:port (hex), f[3] state (01 = ESTABLISHED), f[9] inode
                if (!f[3].equals("01") || !inodes.contains(f[9])) {
                    continue;
                }
                String[] rp = f[2].split(":");
                String hex = rp[0];
                String v4 = hex.length() == 8 ? hex : hex.length() == 32
                        && hex.startsWith("0000000000000000FFFF0000") ? hex.substring(24) : null;
                if (v4 == null) {
                    continue; // a real IPv6 peer: not a server of ours
                }
                long a = Long.parseLong(v4, 16);
                String ip = (a & 0xff) + "." + ((a >> 8) & 0xff) + "." + ((a >> 16) & 0xff) + "." + ((a >> 24) & 0xff);
                out.add(new InetSocketAddress(ip, Integer.parseInt(rp[1], 16)));
            }
        }
        return out;
    }
}
