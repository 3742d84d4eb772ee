package io.zkchaos.fle.node;

import io.zkchaos.fle.Bugs;
import io.zkchaos.fle.Timing;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A node's configuration, read from a file in ZooKeeper's {@code zoo.cfg} style ({@code key=value} lines, {@code #}
 * comments), so that a harness that writes {@code zoo.cfg} for ZooKeeper can write this one the same way:
 * <pre>
 * dataDir=/var/fle/n1            the node's durable state (created if missing)
 * myid=1                         optional when dataDir/myid holds it (as ZooKeeper reads it)
 * clientPortAddress=127.0.0.1    with clientPort: where clients connect (or clientAddress=host:port)
 * clientPort=2181
 * server.1=127.0.0.1:2888:3888   host:quorumPort:electionPort for every server: this node's own line is what it
 * server.2=127.0.0.17:2888:3888  binds; a peer's line is where this node connects to reach it (a proxy address,
 * server.3=127.0.0.18:2888:3888  say). Host names are resolved at every connection attempt.
 * tickTime=100                   ms; initLimit, syncLimit in ticks (defaults 20 and 10)
 * finalizeWait=200               ms; maxNotificationInterval (2000), ackBeforeDurableDelay (1000), maxDiffEntries (500)
 * bugs=no-finalize-wait          comma-separated bug flags; none by default
 * </pre>
 * Settings ZooKeeper needs and these nodes do not ({@code 4lw.commands.whitelist} and the like) are accepted and
 * ignored; any other key is an error, as are a key given twice, two servers with one id and a bad value.
 *
 * @param servers every server's (quorum, election) address, by id, this node's own included
 */
public record NodeConfig(long myId, Path dataDir, InetSocketAddress clientAddress, SortedMap<Long, Server> servers,
                         Timing timing, Bugs bugs, Path source) {

    /** A server line: where its quorum and election ports are (unresolved: resolved at each use). */
    public record Server(long id, String host, int quorumPort, int electionPort) {
        public InetSocketAddress quorumAddress() {
            return new InetSocketAddress(host, quorumPort);
        }

        public InetSocketAddress electionAddress() {
            return new InetSocketAddress(host, electionPort);
        }

        @Override
        public String toString() {
            return host + ":" + quorumPort + ":" + electionPort;
        }
    }

    /** ZooKeeper settings that may be present and mean nothing here. */
    static final Set<String> IGNORED = Set.of("4lw.commands.whitelist", "admin.enableServer", "reconfigEnabled",
            "quorumListenOnAllIPs", "multiAddress.enabled", "autopurge.purgeInterval", "autopurge.snapRetainCount",
            "standaloneEnabled", "maxClientCnxns", "minSessionTimeout", "maxSessionTimeout", "dataLogDir",
            "metricsProvider.className", "electionAlg", "skipACL");

    private static final Set<String> KNOWN = Set.of("myid", "dataDir", "clientPortAddress", "clientPort",
            "clientAddress", "tickTime", "initLimit", "syncLimit", "finalizeWait", "maxNotificationInterval",
            "ackBeforeDurableDelay", "maxDiffEntries", "bugs");

    public NodeConfig {
        servers = Collections.unmodifiableSortedMap(new TreeMap<>(servers));
    }

    public Server self() {
        return servers.get(myId);
    }

    /** Reads and checks {@code file}; the exception's message names the problem (and the line). */
    public static NodeConfig load(Path file) throws ConfigException {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ConfigException("cannot read the config file " + file + ": " + e);
        }
        Map<String, String> values = new LinkedHashMap<>();
        Map<String, Integer> lineOf = new HashMap<>();
        SortedMap<Long, Server> servers = new TreeMap<>();
        Map<Long, Integer> serverLine = new HashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            int no = i + 1;
            String line = lines.get(i).trim();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int eq = line.indexOf('=');
            if (eq <= 0) {
                throw new ConfigException(file + " line " + no + ": expected key=value, found '" + line + "'");
            }
            String key = line.substring(0, eq).trim();
            String value = line.substring(eq + 1).trim();
            if (key.startsWith("server.")) {
                long id = parseId(file, no, key.substring("server.".length()));
                Integer earlier = serverLine.put(id, no);
                if (earlier != null) {
                    throw new ConfigException(file + ": duplicate server id " + id + " (lines " + earlier + " and "
                            + no + ")");
                }
                servers.put(id, parseServer(file, no, id, value));
                continue;
            }
            if (IGNORED.contains(key)) {
                continue;
            }
            if (!KNOWN.contains(key)) {
                throw new ConfigException(file + " line " + no + ": unknown setting '" + key + "'");
            }
            Integer earlier = lineOf.put(key, no);
            if (earlier != null) {
                throw new ConfigException(file + ": '" + key + "' is set twice (lines " + earlier + " and " + no
                        + ")");
            }
            values.put(key, value);
        }

        String dir = values.get("dataDir");
        if (dir == null || dir.isBlank()) {
            throw new ConfigException(file + ": dataDir is missing");
        }
        Path dataDir = Path.of(dir);
        long myId = myId(file, values, dataDir);
        if (servers.isEmpty()) {
            throw new ConfigException(file + ": no server.N lines");
        }
        if (!servers.containsKey(myId)) {
            throw new ConfigException(file + ": myid " + myId + " has no server." + myId + " line (servers "
                    + servers.keySet() + ")");
        }
        checkDistinctAddresses(file, servers);
        InetSocketAddress client = clientAddress(file, values);
        Timing t = timing(file, values);
        Bugs bugs;
        try {
            bugs = Bugs.parse(values.getOrDefault("bugs", ""));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(file + ": bugs: " + e.getMessage());
        }
        return new NodeConfig(myId, dataDir, client, servers, t, bugs, file);
    }

    private static long parseId(Path file, int no, String text) throws ConfigException {
        try {
            long id = Long.parseLong(text.trim());
            if (id <= 0) {
                throw new NumberFormatException();
            }
            return id;
        } catch (NumberFormatException e) {
            throw new ConfigException(file + " line " + no + ": a server id must be a positive number, not '" + text
                    + "'");
        }
    }

    private static Server parseServer(Path file, int no, long id, String value) throws ConfigException {
        String v = value;
        int semi = v.indexOf(';'); // ZooKeeper's ";clientPort" suffix
        if (semi >= 0) {
            v = v.substring(0, semi);
        }
        String[] parts = v.split(":");
        if (parts.length < 3 || parts[0].isBlank()) {
            throw new ConfigException(file + " line " + no + ": server." + id + " must be host:quorumPort:electionPort,"
                    + " not '" + value + "'");
        }
        String where = file + " line " + no;
        return new Server(id, parts[0].trim(), port(where, parts[1]), port(where, parts[2]));
    }

    private static int port(String where, String text) throws ConfigException {
        try {
            int p = Integer.parseInt(text.trim());
            if (p <= 0 || p > 65535) {
                throw new NumberFormatException();
            }
            return p;
        } catch (NumberFormatException e) {
            throw new ConfigException(where + ": not a port: '" + text.trim() + "'");
        }
    }

    private static void checkDistinctAddresses(Path file, SortedMap<Long, Server> servers) throws ConfigException {
        Map<String, Long> seen = new HashMap<>();
        for (Server s : servers.values()) {
            for (String a : List.of(s.host() + ":" + s.quorumPort(), s.host() + ":" + s.electionPort())) {
                Long other = seen.put(a, s.id());
                if (other != null) {
                    throw new ConfigException(file + ": servers " + other + " and " + s.id() + " share the address "
                            + a + (other == s.id() ? " (quorum and election port are the same)" : ""));
                }
            }
        }
    }

    private static long myId(Path file, Map<String, String> values, Path dataDir) throws ConfigException {
        String text = values.get("myid");
        String from = "myid";
        if (text == null) {
            Path f = dataDir.resolve("myid");
            if (!Files.isRegularFile(f)) {
                throw new ConfigException(file + ": myid is missing (neither a myid= line nor a readable " + f + ")");
            }
            try {
                text = Files.readString(f, StandardCharsets.UTF_8).trim();
            } catch (IOException e) {
                throw new ConfigException(file + ": cannot read " + f + ": " + e);
            }
            from = f.toString();
        }
        try {
            long id = Long.parseLong(text.trim());
            if (id <= 0) {
                throw new NumberFormatException();
            }
            return id;
        } catch (NumberFormatException e) {
            throw new ConfigException(file + ": " + from + " must be a positive number, not '" + text + "'");
        }
    }

    private static InetSocketAddress clientAddress(Path file, Map<String, String> values) throws ConfigException {
        String whole = values.get("clientAddress");
        if (whole != null) {
            int colon = whole.lastIndexOf(':');
            if (colon <= 0) {
                throw new ConfigException(file + ": clientAddress must be host:port, not '" + whole + "'");
            }
            return new InetSocketAddress(whole.substring(0, colon), port(file + ": clientAddress",
                    whole.substring(colon + 1)));
        }
        String port = values.get("clientPort");
        if (port == null) {
            throw new ConfigException(file + ": clientPort (or clientAddress) is missing");
        }
        return new InetSocketAddress(values.getOrDefault("clientPortAddress", "0.0.0.0"),
                port(file + ": clientPort", port));
    }

    private static Timing timing(Path file, Map<String, String> v) throws ConfigException {
        Timing d = Timing.DEFAULT;
        try {
            return new Timing(num(file, v, "tickTime", d.tickMs()), (int) num(file, v, "initLimit", d.initLimit()),
                    (int) num(file, v, "syncLimit", d.syncLimit()), num(file, v, "finalizeWait", d.finalizeWaitMs()),
                    num(file, v, "maxNotificationInterval", d.maxNotificationIntervalMs()),
                    num(file, v, "ackBeforeDurableDelay", d.ackBeforeDurableDelayMs()),
                    (int) num(file, v, "maxDiffEntries", d.maxDiffEntries()));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(file + ": " + e.getMessage());
        }
    }

    private static long num(Path file, Map<String, String> v, String key, long dflt) throws ConfigException {
        String text = v.get(key);
        if (text == null) {
            return dflt;
        }
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new ConfigException(file + ": " + key + " must be a number, not '" + text + "'");
        }
    }
}
