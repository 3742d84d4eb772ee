package io.zkchaos.checkers.state;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The contract of per-client ACLs ({@code --acl per-client}) between the workloads that set them and
 * {@link FinalStateChecker} that checks them: the digest identities, the permissions each holds, and an ACL's
 * canonical text. Pure: no ZooKeeper here (the workloads build ZooKeeper's {@code ACL}s from these names).
 *
 * <p><b>The identities</b> (digest scheme, {@code user:password}, the password known to the harness):
 * <ul>
 *   <li>{@value #AUDITOR}: the harness's own sessions (setup, cleanup, final reads); {@code cdrwa} on every
 *       workload znode, so that it can read, list and delete everything;</li>
 *   <li>{@code zkchaos-c<id>}: one per client session, {@code <id>} unique to it (the session id in hex; a
 *       Curator candidate's name); {@code cdrwa} on the znodes that session created;</li>
 *   <li>{@value #CLIENTS}: held by every client session besides its own; on znodes a client created {@code rw}
 *       (the workloads read each other's znodes, and the watches workload's writers set znodes another session
 *       created), on the znodes setup created {@code cdrw} (the parents every client creates and deletes children
 *       under, the registers every client sets).</li>
 * </ul>
 * So a workload znode's ACL is one of two shapes: {@linkplain #SETUP setup's} (auditor {@code cdrwa}, clients
 * {@code cdrw}) or {@linkplain #clientShape a client's} (auditor {@code cdrwa}, exactly one client identity
 * {@code cdrwa}, clients {@code rw}).
 *
 * <p><b>Canonical text</b>: each entry {@code scheme:id=perms} (perms in the order {@code cdrwa}, the letters ZooKeeper's
 * CLI prints), entries sorted and joined by {@code ,}; a digest id is {@code user:base64(sha1(user:password))}.
 */
public final class WorkloadAcls {

    /** The harness's own identity. */
    public static final String AUDITOR = "zkchaos-auditor";
    /** The identity every client session holds besides its own. */
    public static final String CLIENTS = "zkchaos-clients";
    /** A client session's own identity: this prefix and an id unique to the session. */
    public static final String CLIENT_PREFIX = "zkchaos-c";
    /** ZooKeeper's permission bits, in the order of their letters. */
    private static final String LETTERS = "cdrwa";
    private static final int[] BITS = {4, 8, 1, 2, 16};

    /** What the auditor holds everywhere. */
    public static final String AUDITOR_PERMS = "cdrwa";
    /** What the clients' shared identity holds on a znode setup created. */
    public static final String CLIENTS_ON_SETUP = "cdrw";
    /** What the clients' shared identity holds on a znode a client created. */
    public static final String CLIENTS_ON_CLIENTS = "rw";
    /** What a client holds on the znodes it created. */
    public static final String OWNER_PERMS = "cdrwa";

    /** The ACL setup gives: user → perms. */
    public static final Map<String, String> SETUP = Map.of(AUDITOR, AUDITOR_PERMS, CLIENTS, CLIENTS_ON_SETUP);

    private WorkloadAcls() {
    }

    /** The ACL client {@code user} gives the znodes it creates: user → perms. */
    public static Map<String, String> clientShape(String user) {
        return Map.of(AUDITOR, AUDITOR_PERMS, user, OWNER_PERMS, CLIENTS, CLIENTS_ON_CLIENTS);
    }

    /** Whether {@code user} names one client session (not the auditor, not the clients' shared identity). */
    public static boolean isClient(String user) {
        return user.startsWith(CLIENT_PREFIX) && !user.equals(CLIENTS) && user.length() > CLIENT_PREFIX.length();
    }

    /** ZooKeeper's permission bits as letters ({@code cdrwa} order). */
    public static String letters(int perms) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < BITS.length; i++) {
            if ((perms & BITS[i]) != 0) {
                s.append(LETTERS.charAt(i));
            }
        }
        return s.toString();
    }

    /** Letters ({@code cdrwa}, any subset in that order) as ZooKeeper's permission bits. */
    public static int bits(String letters) {
        int perms = 0;
        for (char c : letters.toCharArray()) {
            int i = LETTERS.indexOf(c);
            if (i < 0) {
                throw new IllegalArgumentException("not a permission letter (one of cdrwa): '" + c + "' in "
                        + letters);
            }
            perms |= BITS[i];
        }
        return perms;
    }

    /** One entry of an ACL: {@code scheme}, {@code id}, permissions as letters. */
    public record Entry(String scheme, String id, String perms) {

        /** {@code scheme:id=perms}. */
        public String text() {
            return scheme + ":" + id + "=" + perms;
        }

        /** The user of a digest id ({@code user:hash}), else null. */
        public String digestUser() {
            if (!scheme.equals("digest")) {
                return null;
            }
            int colon = id.indexOf(':');
            return colon < 0 ? id : id.substring(0, colon);
        }
    }

    /** The canonical text of {@code entries}: each {@link Entry#text()}, sorted, joined by {@code ,}. */
    public static String canonical(List<Entry> entries) {
        return String.join(",", entries.stream().map(Entry::text).sorted().toList());
    }

    /** Reads canonical text back into entries. */
    public static List<Entry> parse(String canonical) {
        List<Entry> entries = new ArrayList<>();
        if (canonical.isEmpty()) {
            return entries;
        }
        for (String e : canonical.split(",")) {
            int colon = e.indexOf(':');
            int eq = e.lastIndexOf('=');
            if (colon < 1 || eq < colon) {
                throw new IllegalArgumentException("not an ACL entry (scheme:id=perms): '" + e + "' in " + canonical);
            }
            entries.add(new Entry(e.substring(0, colon), e.substring(colon + 1, eq), e.substring(eq + 1)));
        }
        return entries;
    }

    /**
     * Why the ACL {@code canonical} is neither setup's shape nor one client's (the digests' users and permissions
     * compared, not their hashes), or null when it is one of them.
     */
    public static String unexpected(String canonical) {
        List<Entry> entries;
        try {
            entries = parse(canonical);
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        Map<String, String> byUser = new TreeMap<>();
        for (Entry e : entries) {
            String user = e.digestUser();
            if (user == null) {
                return "names " + e.text() + ", not a digest identity of the run";
            }
            if (byUser.put(user, e.perms()) != null) {
                return "names " + user + " twice";
            }
        }
        List<String> clients = byUser.keySet().stream().filter(WorkloadAcls::isClient).toList();
        if (clients.isEmpty()) {
            return byUser.equals(SETUP) ? null : "neither setup's ACL (" + AUDITOR + "=" + AUDITOR_PERMS + ", "
                    + CLIENTS + "=" + CLIENTS_ON_SETUP + ") nor a client's: no client identity";
        }
        if (clients.size() > 1) {
            return "names " + clients.size() + " client identities (" + String.join(", ", clients)
                    + "): a znode has one creator";
        }
        Map<String, String> expected = clientShape(clients.get(0));
        return byUser.equals(expected) ? null : "not the ACL client " + clients.get(0) + " creates with ("
                + new TreeMap<>(expected) + ")";
    }
}
