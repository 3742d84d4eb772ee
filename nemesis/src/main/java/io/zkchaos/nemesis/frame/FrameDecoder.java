package io.zkchaos.nemesis.frame;

import java.nio.ByteBuffer;

/**
 * Follows one stream of one connection of a protocol, byte by byte as the fault proxy passes it on, and names the
 * frames in it. It never changes the bytes. Stateful: one decoder per stream of one connection, fed in order; it
 * may be fed any split of the stream (a frame's header can arrive one byte at a time).
 */
public interface FrameDecoder {

    /**
     * Reads the next bytes of the stream (from the buffer's position to its limit; the position is not moved).
     *
     * @throws FrameDecodingException when the bytes do not follow the protocol; the stream is not decoded further
     */
    void decode(ByteBuffer bytes, Listener listener);

    /** What a decoder reports; offsets are relative to the position of the buffer handed to {@link #decode}. */
    interface Listener {

        /** A frame ended after the first {@code end} bytes of the buffer. */
        void frameEnded(Frame frame, int end);

        /**
         * Bytes {@code from .. to} (exclusive) of the buffer belong to the body of a long frame whose first
         * {@code before} body bytes passed earlier (ZooKeeper: the snapshot that follows a {@code SNAP} packet), so
         * that a fault can act after exactly N bytes of it. Called only for the frame types a decoder calls long,
         * before their {@link #frameEnded}; {@code frame.length()} is -1 (not known yet).
         */
        default void inFrame(Frame frame, long before, int from, int to) {
        }
    }
}
