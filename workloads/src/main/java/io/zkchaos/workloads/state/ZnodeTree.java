package io.zkchaos.workloads.state;

import io.zkchaos.workloads.ZnodeAcls;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * Reads the whole data tree one server holds, through a session connected to that server alone: every znode below
 * {@code /} (ZooKeeper's own {@code /zookeeper} subtree left out) with its data and the parts of its stat that every
 * replica must agree on. As plain data for the history: path → {@code {"data": text | "dataBase64": bytes |
 * "dataBytes": length, "dataSha256": hex (data over 1 KiB),
 * "version", "cversion", "czxid", "mzxid", "pzxid", "owner": "0x<session>", "acl": text}} ({@code owner} only on
 * ephemerals; {@code acl} as {@link io.zkchaos.checkers.state.WorkloadAcls}' canonical text, which every replica must
 * agree on too).
 *
 * <p>Calls are pipelined (asynchronous {@code getData} and {@code getACL}, then {@code getChildren} where the stat
 * says there are children): one session answers them in order, so a tree of thousands of znodes takes one round trip per level
 * rather than two per znode. A znode deleted between listing and reading is left out; any other error fails the
 * read.
 */
public final class ZnodeTree {

    /** ZooKeeper's own subtree (quotas, the dynamic configuration): not data of the system under test. */
    static final String SYSTEM = "/zookeeper";

    private ZnodeTree() {
    }

    /**
     * The tree as the server {@code zk} is connected to holds it now.
     *
     * @param bound the longest the whole read may take
     * @throws KeeperException the first error other than a vanished znode
     * @throws TimeoutException past {@code bound}
     */
    public static Map<String, Object> read(ZooKeeper zk, java.time.Duration bound)
            throws KeeperException, InterruptedException, TimeoutException {
        Map<String, Object> znodes = new TreeMap<>();
        CompletableFuture<Void> done = new CompletableFuture<>();
        AtomicInteger pending = new AtomicInteger(1);
        readNode(zk, "/", znodes, pending, done);
        try {
            done.get(bound.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof KeeperException ke) {
                throw ke;
            }
            throw new IllegalStateException("reading the tree failed", e.getCause());
        }
        synchronized (znodes) {
            return new LinkedHashMap<>(znodes);
        }
    }

    /** The newest zxid that shaped a tree read by {@link #read}: the largest czxid, mzxid or pzxid. */
    @SuppressWarnings("unchecked")
    public static long zxid(Map<String, Object> tree) {
        long max = 0;
        for (Object z : tree.values()) {
            Map<String, Object> m = (Map<String, Object>) z;
            for (String f : new String[] {"czxid", "mzxid", "pzxid"}) {
                max = Math.max(max, (Long) m.get(f));
            }
        }
        return max;
    }

    /** How many ephemerals a tree read by {@link #read} holds. */
    @SuppressWarnings("unchecked")
    public static long ephemerals(Map<String, Object> tree) {
        return tree.values().stream().filter(z -> ((Map<String, Object>) z).containsKey("owner")).count();
    }

    private static void readNode(ZooKeeper zk, String path, Map<String, Object> out, AtomicInteger pending,
                                 CompletableFuture<Void> done) {
        pending.incrementAndGet(); // the getACL below: counted before the getData can finish the read
        zk.getData(path, false, (rc, p, ctx, data, stat) -> {
            KeeperException.Code code = KeeperException.Code.get(rc);
            if (code == KeeperException.Code.OK) {
                synchronized (out) {
                    out.put(path, znode(data, stat));
                }
                if (stat.getNumChildren() > 0) {
                    pending.incrementAndGet();
                    zk.getChildren(path, false, (rc2, p2, ctx2, children) -> {
                        KeeperException.Code code2 = KeeperException.Code.get(rc2);
                        if (code2 == KeeperException.Code.OK) {
                            for (String child : children) {
                                String childPath = path.equals("/") ? "/" + child : path + "/" + child;
                                if (!childPath.equals(SYSTEM)) {
                                    pending.incrementAndGet();
                                    readNode(zk, childPath, out, pending, done);
                                }
                            }
                        } else if (code2 != KeeperException.Code.NONODE) {
                            done.completeExceptionally(KeeperException.create(code2, path));
                        }
                        finish(pending, done);
                    }, null);
                }
            } else if (code != KeeperException.Code.NONODE) {
                done.completeExceptionally(KeeperException.create(code, path));
            }
            finish(pending, done);
        }, null);
        // one session answers in order: the getData above has put the znode by the time its ACL arrives
        zk.getACL(path, new Stat(), (rc, p, ctx, acl, stat) -> {
            KeeperException.Code code = KeeperException.Code.get(rc);
            if (code == KeeperException.Code.OK) {
                synchronized (out) {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> z = (Map<String, Object>) out.get(path);
                    if (z != null) {
                        z.put("acl", ZnodeAcls.canonical(acl));
                    }
                }
            } else if (code != KeeperException.Code.NONODE) {
                done.completeExceptionally(KeeperException.create(code, path));
            }
            finish(pending, done);
        }, null);
    }

    private static void finish(AtomicInteger pending, CompletableFuture<Void> done) {
        if (pending.decrementAndGet() == 0) {
            done.complete(null);
        }
    }

    /**
     * One znode's fields: text data as a string, other bytes as base64, data longer than {@value #LARGE_DATA} bytes
     * as its length and SHA-256 (a preloaded tree of megabytes would otherwise be copied into the history once per
     * server and round); the owner only for an ephemeral.
     */
    static Map<String, Object> znode(byte[] data, Stat stat) {
        Map<String, Object> z = new LinkedHashMap<>();
        String text = text(data);
        if (data != null && data.length > LARGE_DATA) {
            z.put("dataBytes", (long) data.length);
            z.put("dataSha256", sha256(data));
        } else if (text != null) {
            z.put("data", text);
        } else {
            z.put("dataBase64", Base64.getEncoder().encodeToString(data));
        }
        z.put("version", (long) stat.getVersion());
        z.put("cversion", (long) stat.getCversion());
        z.put("czxid", stat.getCzxid());
        z.put("mzxid", stat.getMzxid());
        z.put("pzxid", stat.getPzxid());
        if (stat.getEphemeralOwner() != 0) {
            z.put("owner", "0x" + Long.toHexString(stat.getEphemeralOwner()));
        }
        return z;
    }

    /** Data longer than this is recorded by its length and digest, not its bytes. */
    static final int LARGE_DATA = 1024;

    private static String sha256(byte[] data) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                    .digest(data));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /** {@code data} as text when it is UTF-8 without control characters (besides tab and newline), else null. */
    static String text(byte[] data) {
        if (data == null) {
            return "";
        }
        try {
            String s = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(data)).toString();
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c < 0x20 && c != '\n' && c != '\t' || c == 0x7f) {
                    return null;
                }
            }
            return s;
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
