package io.zkchaos.nemesis.proxy;

import java.nio.ByteBuffer;

/**
 * An observer of the bytes that pass one link, one stream of one connection at a time: the point where a
 * protocol reader (e.g. one that follows ZooKeeper's quorum packet framing) sits. A tap never alters bytes; it may
 * halt the stream at an exact byte boundary, e.g. right after a chosen packet, through
 * {@link TapContext#haltAfter}.
 *
 * <p>Contract: every method is called on the proxy's selector thread, so it must be quick and must never block.
 * For one connection and stream, {@link #onBytes} sees every byte read from the sending side exactly once, in
 * order, before any toxic acts on it (toxics and halts act on what follows). Link methods may be called from a tap
 * (on the proxy thread they run at once). An exception thrown by a tap is logged and the tap is not called again
 * for that connection and stream.
 */
public interface StreamTap {

    /**
     * Bytes just read from one side of a connection.
     *
     * @param context which link, connection and stream; valid only during the call
     * @param bytes   a read-only view of the bytes, valid only during the call
     */
    void onBytes(TapContext context, ByteBuffer bytes);

    /** A connection of the link ended (either side closed, a cut, or the proxy closing); no more bytes follow. */
    default void onClosed(String link, long connectionId) {
    }
}
