package io.zkchaos.nemesis.proxy;

import java.nio.ByteBuffer;

/**
 * An observer of the bytes that pass one link, one stream of one connection at a time: the point where a
 * protocol reader (e.g. one that follows ZooKeeper's quorum packet framing) sits. A tap never alters bytes; it may
 * halt the stream at an exact byte boundary, e.g. right after a chosen packet, through
 * {@link TapContext#haltAfter}.
 *
 * <p>Contract:
 * <ul>
 *   <li>Every method is called on a proxy selector thread — the one the connection is pinned to — so it must be
 *       quick and must never block.</li>
 *   <li>Calls to one tap never overlap, even for connections on different threads: the proxy holds the link's tap
 *       lock around each call, which also makes what one call wrote visible to the next. A tap written for one
 *       thread (plain maps keyed by connection id) therefore needs no locking of its own.</li>
 *   <li>For one connection and stream, {@link #onBytes} sees every byte read from the sending side exactly once,
 *       in order, before any toxic acts on it (toxics and halts act on what follows), until the stream is halted
 *       with {@link TapContext.Halt#CLOSE} or {@link TapContext.Halt#RESET}. {@link #onClosed} is the last call for
 *       a connection.</li>
 *   <li>Link methods may be called from a tap: they take effect at once for the connections of the calling
 *       thread, this one included, and are handed to the other threads without waiting for them.</li>
 *   <li>An exception thrown by a tap is logged and the tap is not called again for that connection and
 *       stream.</li>
 * </ul>
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
