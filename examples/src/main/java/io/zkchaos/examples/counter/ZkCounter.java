package io.zkchaos.examples.counter;

import java.nio.charset.StandardCharsets;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * A counter kept in one znode, the kind of small thing applications build on ZooKeeper (the user code the example
 * chaos test checks). Its value is the znode's data, a decimal number.
 *
 * <p>Why it is safe: {@link #compareAndSet} writes with the version it read, so a concurrent change makes the write
 * fail with a bad version instead of being overwritten; {@link #get} runs {@code sync()} before reading, so a read
 * from a follower that lags behind the leader still sees every write completed before it began.
 */
public final class ZkCounter {

    private final ZooKeeper zk;
    private final String path;

    /** A counter at {@code path} (its parent must exist), through the session {@code zk}. */
    public ZkCounter(ZooKeeper zk, String path) {
        this.zk = zk;
        this.path = path;
    }

    /** Creates the counter at 0 unless it exists. */
    public void createIfAbsent() throws KeeperException, InterruptedException {
        try {
            zk.create(path, encode(0), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        } catch (KeeperException.NodeExistsException e) {
            // there already
        }
    }

    /** The counter's value, as of a moment after this call began. */
    public long get() throws KeeperException, InterruptedException {
        zk.sync(path);
        return decode(zk.getData(path, false, null));
    }

    /**
     * Sets the counter to {@code update} if it is {@code expect}.
     *
     * @return false if the counter was not {@code expect}, or changed between the read and the write: nothing was
     *         written
     */
    public boolean compareAndSet(long expect, long update) throws KeeperException, InterruptedException {
        Stat stat = new Stat();
        long now = decode(zk.getData(path, false, stat));
        if (now != expect) {
            return false;
        }
        try {
            zk.setData(path, encode(update), stat.getVersion());
            return true;
        } catch (KeeperException.BadVersionException e) {
            return false;
        }
    }

    /** Adds one, retrying while other clients win the race; returns the new value. */
    public long increment() throws KeeperException, InterruptedException {
        while (true) {
            long v = get();
            if (compareAndSet(v, v + 1)) {
                return v + 1;
            }
        }
    }

    private static byte[] encode(long v) {
        return Long.toString(v).getBytes(StandardCharsets.UTF_8);
    }

    private static long decode(byte[] data) {
        return Long.parseLong(new String(data, StandardCharsets.UTF_8));
    }
}
