package io.zkchaos.nemesis.frame;

import io.zkchaos.nemesis.net.Stream;

/**
 * A frame the taps saw pass, for tests and diagnostics.
 *
 * @param seq        its number among every frame seen, from 1
 * @param atNanos    {@link System#nanoTime()} when it passed
 * @param link       the link, e.g. {@code n2-n1-quorum}
 * @param connection the proxy's id of the connection
 * @param stream     the stream of the connection
 * @param sender     the node that sent it
 * @param receiver   the node it was going to
 * @param frame      the frame
 */
public record SeenFrame(long seq, long atNanos, String link, long connection, Stream stream, String sender,
                        String receiver, Frame frame) {
}
