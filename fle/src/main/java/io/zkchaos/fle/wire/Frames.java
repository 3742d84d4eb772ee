package io.zkchaos.fle.wire;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/** Length-prefixed frames on a stream: a 4-byte length, then that many bytes. */
public final class Frames {

    private Frames() {
    }

    /** Writes one frame (not flushed). */
    public static void write(DataOutputStream out, byte[] body) throws IOException {
        out.writeInt(body.length);
        out.write(body);
    }

    /** Reads one frame; {@link java.io.EOFException} at a clean end of stream. */
    public static byte[] read(DataInputStream in, int max) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > max) {
            throw new IOException("frame length " + n + " out of range (0.." + max + ")");
        }
        byte[] b = new byte[n];
        in.readFully(b);
        return b;
    }
}
