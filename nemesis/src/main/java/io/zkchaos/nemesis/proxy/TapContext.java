package io.zkchaos.nemesis.proxy;

import io.zkchaos.nemesis.net.Stream;

/** Where a {@link StreamTap} call's bytes come from, and how the tap may halt the stream. Valid during the call. */
public interface TapContext {

    /** What a tap can do to the stream after a chosen byte. */
    enum Halt {
        /**
         * Hold every later byte of this stream of this connection (nothing is dropped; once the hold reaches the
         * buffer bound the proxy stops reading from the sender) until {@link ProxyLink#releaseStalls()}.
         */
        STALL,
        /** Deliver the bytes before the halt point, then close the connection (FIN); later bytes are dropped. */
        CLOSE,
        /** Deliver the bytes before the halt point, then reset the connection (RST); later bytes are dropped. */
        RESET
    }

    String link();

    long connectionId();

    Stream stream();

    /**
     * Halts this stream of this connection after the first {@code offset} bytes of the current chunk, which pass
     * on as usual (through the toxics). The last call during one {@code onBytes} wins.
     *
     * @param offset 0..bytes.remaining() of the current call
     * @throws IllegalArgumentException if offset is outside the chunk
     */
    void haltAfter(int offset, Halt halt);
}
