package io.zkchaos.nemesis.proxy;

import io.zkchaos.nemesis.net.Stream;
import java.nio.ByteBuffer;

/**
 * An observer of the bytes that pass one link, one stream of one connection at a time: the point where a
 * protocol reader (e.g. one that follows ZooKeeper's quorum packet framing) sits. The proxy never lets a tap alter
 * bytes.
 *
 * <p>Contract: every method is called on the proxy's selector thread, so it must be quick and must never block or
 * call back into {@link FaultProxy} synchronously with a wait (the link methods are safe to call from a tap: on the
 * proxy thread they run at once). For one connection and stream, {@link #onBytes} sees every byte read from the
 * sending side exactly once, in order, before any toxic acts on it — including bytes a toxic later drops. An
 * exception thrown by a tap is logged and the tap is not called again for that connection.
 */
public interface StreamTap {

    /**
     * Bytes just read from one side of a connection.
     *
     * @param link         the link's name
     * @param connectionId the connection's id, unique within the proxy
     * @param stream       which direction the bytes travel
     * @param bytes        a read-only view, valid only during the call
     */
    void onBytes(String link, long connectionId, Stream stream, ByteBuffer bytes);

    /** A connection of the link ended (either side closed, a cut, or the proxy closing); no more bytes follow. */
    default void onClosed(String link, long connectionId) {
    }
}
