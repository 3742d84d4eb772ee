package io.zkchaos.checkers.watches;

/** Zxids as people read them: ZooKeeper's logs and tools print them in hex. */
final class Zxids {

    private Zxids() {
    }

    /** {@code 0x100000012}; {@code unknown} for a negative zxid. */
    static String hex(long zxid) {
        return zxid < 0 ? "unknown" : "0x" + Long.toHexString(zxid);
    }
}
