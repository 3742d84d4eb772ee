package io.zkchaos.harness.cluster.ssh;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The hosts file of the ssh backend, as Jepsen's nodes file: one host a line, node {@code n1} on the first. A line is
 * {@code [user@]host[:port] [address]}; blank lines and what follows a {@code #} are ignored. {@code host} may be an
 * alias of the SSH client configuration; {@code address} (rarely needed) is the address the host's servers bind and
 * the others reach them at, when it is not the one the harness resolves {@code host} to.
 */
public final class HostsFile {

    private HostsFile() {
    }

    /**
     * Reads a hosts file.
     *
     * @throws IllegalArgumentException naming the file and line of what is wrong (also when it names no host, or one
     *                                  host twice)
     * @throws UncheckedIOException     naming the file when it cannot be read
     */
    public static List<SshHost> read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the hosts file " + file + ": " + e.getMessage(), e);
        }
        return parse(lines, file.toString());
    }

    /** Parses the lines of a hosts file; {@code source} names it in errors. */
    public static List<SshHost> parse(List<String> lines, String source) {
        List<SshHost> hosts = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            int hash = line.indexOf('#');
            String text = (hash >= 0 ? line.substring(0, hash) : line).trim();
            if (text.isEmpty()) {
                continue;
            }
            String where = source + " line " + (i + 1);
            SshHost host;
            try {
                host = line(text);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + ": " + e.getMessage() + " (a line is [user@]host[:port] "
                        + "[address])", e);
            }
            if (!seen.add(host.name())) {
                throw new IllegalArgumentException(where + ": host " + host.name() + " is named twice; each host runs "
                        + "one node");
            }
            hosts.add(host);
        }
        if (hosts.isEmpty()) {
            throw new IllegalArgumentException(source + ": names no host (one host a line, [user@]host[:port])");
        }
        return List.copyOf(hosts);
    }

    private static SshHost line(String text) {
        String[] words = text.split("\\s+");
        if (words.length > 2) {
            throw new IllegalArgumentException("too many words in '" + text + "'");
        }
        String target = words[0];
        String user = null;
        int at = target.indexOf('@');
        if (at >= 0) {
            user = target.substring(0, at);
            target = target.substring(at + 1);
            if (user.isEmpty()) {
                throw new IllegalArgumentException("empty user in '" + words[0] + "'");
            }
        }
        Integer port = null;
        String name = target;
        if (target.startsWith("[")) { // [v6 address]:port
            int close = target.indexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException("unclosed '[' in '" + words[0] + "'");
            }
            name = target.substring(1, close);
            String rest = target.substring(close + 1);
            if (!rest.isEmpty()) {
                port = port(rest.startsWith(":") ? rest.substring(1) : rest, words[0]);
            }
        } else {
            int colon = target.lastIndexOf(':');
            if (colon >= 0 && target.indexOf(':') == colon) {
                name = target.substring(0, colon);
                port = port(target.substring(colon + 1), words[0]);
            }
        }
        if (name.isEmpty()) {
            throw new IllegalArgumentException("no host in '" + words[0] + "'");
        }
        return new SshHost(name, user, port, words.length == 2 ? words[1] : null);
    }

    private static int port(String s, String word) {
        try {
            int p = Integer.parseInt(s);
            if (p < 1 || p > 65535) {
                throw new NumberFormatException();
            }
            return p;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("port must be 1..65535 in '" + word + "', was '" + s + "'", e);
        }
    }
}
