package io.zkchaos.nemesis.proxy;

import java.nio.ByteBuffer;

/** Bytes on their way through one pipe, with the earliest time (System.nanoTime) they may be written. */
final class Chunk {
    final ByteBuffer data;
    long releaseAt;

    Chunk(ByteBuffer data, long releaseAt) {
        this.data = data;
        this.releaseAt = releaseAt;
    }

    int length() {
        return data.remaining();
    }

    /** The next {@code n} bytes of this chunk as a new chunk sharing the array; advances this chunk. */
    Chunk split(int n) {
        ByteBuffer head = data.slice();
        head.limit(n);
        data.position(data.position() + n);
        return new Chunk(head, releaseAt);
    }
}
