package io.zkchaos.workloads;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import io.zkchaos.checkers.state.WorkloadAcls;
import java.nio.charset.StandardCharsets;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;

/**
 * The ACLs the workloads give their znodes ({@code --acl}), and the identities their sessions authenticate with.
 *
 * <ul>
 *   <li>{@link #OPEN}: every znode {@code world:anyone} with every permission ({@code OPEN_ACL_UNSAFE}); no session
 *       authenticates. The default, and what runs did before the option existed.</li>
 *   <li>{@link #PER_CLIENT}: every client session authenticates with a digest identity of its own
 *       ({@code zkchaos-c<session id in hex>}) and the clients' shared one; the harness's own sessions (setup,
 *       cleanup, final reads) with the auditor's. Every znode a client creates gets its own identity's ACL, so a
 *       run's data tree holds as many distinct ACLs as it had client sessions: ZooKeeper's ACL cache, written into
 *       every snapshot and rebuilt from it, is exercised by snapshots, restarts and syncs. The permissions, and why
 *       each is the least the workloads need, are {@link WorkloadAcls}'.</li>
 * </ul>
 * Digest identities exist since ZooKeeper 3.3: every release the harness runs accepts them.
 */
public enum ZnodeAcls {
    OPEN,
    PER_CLIENT;

    /** Every identity's password: the identities separate the clients' ACLs, they guard nothing. */
    private static final String PASSWORD = "zkchaos";

    /** {@code open} or {@code per-client}, as the option spells it (and JSON). */
    @JsonValue
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** @throws IllegalArgumentException naming the choices */
    @JsonCreator
    public static ZnodeAcls parse(String label) {
        for (ZnodeAcls a : values()) {
            if (a.label().equals(label)) {
                return a;
            }
        }
        throw new IllegalArgumentException("acl must be " + String.join(" or ", Arrays.stream(values())
                .map(ZnodeAcls::label).toList()) + ", got '" + label + "'");
    }

    /** Authenticates one of the harness's own sessions (setup, cleanup, final reads) as the auditor. */
    public void authenticateHarness(ZooKeeper zk) {
        if (this == PER_CLIENT) {
            addDigest(zk, WorkloadAcls.AUDITOR);
        }
    }

    /**
     * Authenticates a connected client session as itself ({@link #clientUser}) and as the clients' shared
     * identity; before its first request, so that the server knows both when it answers it.
     */
    public void authenticateClient(ZooKeeper zk) {
        if (this == PER_CLIENT) {
            authenticateClient(zk, clientUser(zk));
        }
    }

    /** As {@link #authenticateClient(ZooKeeper)} for a session whose identity is {@code user}. */
    public void authenticateClient(ZooKeeper zk, String user) {
        clientAuth(user).forEach(c -> zk.addAuthInfo("digest", c));
    }

    /**
     * The digest credentials ({@code user:password}) a client session whose identity is {@code user} authenticates
     * with, for clients that take them before they connect (Curator); none when the ACLs are open.
     */
    public List<byte[]> clientAuth(String user) {
        return this == OPEN ? List.of() : List.of(credentials(user), credentials(WorkloadAcls.CLIENTS));
    }

    /** The ACL of the znodes setup creates (the workload's root and parents, the registers). */
    public List<ACL> forSetup() {
        return this == OPEN ? ZooDefs.Ids.OPEN_ACL_UNSAFE : acl(WorkloadAcls.SETUP);
    }

    /** The ACL of the znodes client session {@code zk} creates (authenticated by {@link #authenticateClient}). */
    public List<ACL> forClient(ZooKeeper zk) {
        return this == OPEN ? ZooDefs.Ids.OPEN_ACL_UNSAFE : forClient(clientUser(zk));
    }

    /** The ACL of the znodes the client whose identity is {@code user} creates. */
    public List<ACL> forClient(String user) {
        return this == OPEN ? ZooDefs.Ids.OPEN_ACL_UNSAFE : acl(WorkloadAcls.clientShape(user));
    }

    /** A connected session's own identity: {@code zkchaos-c} and its session id in hex (unique in the run). */
    public static String clientUser(ZooKeeper zk) {
        long session = zk.getSessionId();
        if (session == 0) {
            throw new IllegalStateException("a client's identity is its session's: connect first");
        }
        return WorkloadAcls.CLIENT_PREFIX + Long.toHexString(session);
    }

    /** An ACL as {@link WorkloadAcls}' canonical text. */
    public static String canonical(List<ACL> acl) {
        return WorkloadAcls.canonical(acl.stream().map(a -> new WorkloadAcls.Entry(a.getId().getScheme(),
                a.getId().getId(), WorkloadAcls.letters(a.getPerms()))).toList());
    }

    private static List<ACL> acl(Map<String, String> permsByUser) {
        List<ACL> acl = new ArrayList<>();
        permsByUser.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e ->
                acl.add(new ACL(WorkloadAcls.bits(e.getValue()), new Id("digest", digest(e.getKey())))));
        // not List.copyOf: ZooKeeper's create asks the list whether it contains null, which List.of's lists refuse
        return Collections.unmodifiableList(acl);
    }

    /** {@code user:base64(sha1(user:password))}, as the digest provider stores an identity. */
    static String digest(String user) {
        try {
            return DigestAuthenticationProvider.generateDigest(user + ":" + PASSWORD);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no digest algorithm for ZooKeeper's digest scheme", e);
        }
    }

    private static void addDigest(ZooKeeper zk, String user) {
        zk.addAuthInfo("digest", credentials(user));
    }

    private static byte[] credentials(String user) {
        return (user + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8);
    }
}
