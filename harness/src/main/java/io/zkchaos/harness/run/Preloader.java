package io.zkchaos.harness.run;

import io.zkchaos.workloads.Sessions;
import io.zkchaos.workloads.Target;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * Creates a {@link Preload}'s znodes through one session, pipelined ({@value #WINDOW} creates in flight): thousands
 * of creates take seconds rather than a round trip each. Idempotent: a znode that exists already (a setup tried again)
 * counts as made. Each znode's data is seeded text, different from znode to znode, so that a server holding one
 * znode's data under another's name differs in the final-state reads.
 */
final class Preloader {

    /** Creates in flight at once. */
    static final int WINDOW = 200;

    private Preloader() {
    }

    /**
     * Creates every znode of {@code preload} on the ensemble of {@code target}, the parent first.
     *
     * @throws KeeperException the first error other than an existing znode
     * @throws TimeoutException when the creates outlast {@code bound}
     */
    static void create(Preload preload, Target target, long seed, java.time.Duration bound) throws Exception {
        Sessions.with(target, zk -> {
            createParent(zk);
            Semaphore window = new Semaphore(WINDOW);
            AtomicInteger pending = new AtomicInteger(preload.count());
            CompletableFuture<Void> done = new CompletableFuture<>();
            Random random = new Random(seed);
            long deadline = System.nanoTime() + bound.toNanos();
            for (int i = 0; i < preload.count() && !done.isDone(); i++) {
                if (!window.tryAcquire(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    throw new TimeoutException("preload: " + (preload.count() - pending.get()) + " of "
                            + preload.count() + " znodes made within " + bound.toSeconds() + " s");
                }
                zk.create(path(i), data(random, preload.bytes()), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT,
                        (rc, path, ctx, name) -> {
                            window.release();
                            KeeperException.Code code = KeeperException.Code.get(rc);
                            if (code != KeeperException.Code.OK && code != KeeperException.Code.NODEEXISTS) {
                                done.completeExceptionally(KeeperException.create(code, path));
                            } else if (pending.decrementAndGet() == 0) {
                                done.complete(null);
                            }
                        }, null);
            }
            try {
                done.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (ExecutionException e) {
                throw e.getCause() instanceof Exception cause ? cause : e;
            }
        });
    }

    private static void createParent(ZooKeeper zk) throws KeeperException, InterruptedException {
        try {
            zk.create(Preload.PATH, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        } catch (KeeperException.NodeExistsException e) {
            // made by an earlier try of the setup
        }
    }

    /** The {@code i}-th znode's path. */
    static String path(int i) {
        return String.format(java.util.Locale.ROOT, "%s/z-%07d", Preload.PATH, i);
    }

    /** {@code bytes} seeded lower-case letters. */
    private static byte[] data(Random random, int bytes) {
        byte[] b = new byte[bytes];
        for (int j = 0; j < bytes; j++) {
            b[j] = (byte) ('a' + random.nextInt(26));
        }
        return b;
    }
}
