package io.zkchaos.nemesis.frame;

import io.zkchaos.nemesis.net.Stream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;

/**
 * A toy protocol for the trigger machinery's tests, on links named {@code *-line}: frames are text lines
 * {@code TYPE id\n}; a line {@code BODY n\n} is followed by n raw bytes, reported as a long frame {@code BLOB}. The
 * phase of every frame is its stream's name, so a trigger can count one direction only. A line starting with
 * {@code ?} is not of the protocol.
 */
final class LineProtocol implements FrameProtocol {

    @Override
    public String name() {
        return "line";
    }

    @Override
    public boolean carries(String linkName) {
        return linkName.endsWith("-line");
    }

    @Override
    public List<FrameMoment> syncMoments() {
        return List.of(new FrameMoment("b", Set.of("B"), "", false),
                new FrameMoment("blob", Set.of("BLOB"), "", true));
    }

    @Override
    public FrameDecoder newDecoder(Stream stream) {
        String phase = stream.wireName();
        return new FrameDecoder() {
            final StringBuilder line = new StringBuilder();
            long lineStart;
            long offset;
            long bodyLeft;
            long bodyLen;
            long bodyId;

            @Override
            public void decode(ByteBuffer bytes, Listener l) {
                int base = bytes.position();
                int i = base;
                while (i < bytes.limit()) {
                    if (bodyLeft > 0) {
                        int n = (int) Math.min(bodyLeft, bytes.limit() - i);
                        l.inFrame(new Frame("BLOB", bodyId, -1, phase), bodyLen - bodyLeft, i - base, i - base + n);
                        bodyLeft -= n;
                        i += n;
                        offset += n;
                        if (bodyLeft == 0) {
                            l.frameEnded(new Frame("BLOB", bodyId, bodyLen, phase), i - base);
                        }
                        continue;
                    }
                    char c = (char) bytes.get(i++);
                    offset++;
                    if (c != '\n') {
                        line.append(c);
                        continue;
                    }
                    String text = line.toString();
                    line.setLength(0);
                    if (text.startsWith("?")) {
                        throw new FrameDecodingException("not a line frame: " + text);
                    }
                    String[] parts = text.split(" ");
                    long id = Long.parseLong(parts[1]);
                    l.frameEnded(new Frame(parts[0], id, offset - lineStart, phase), i - base);
                    lineStart = offset;
                    if (parts[0].equals("BODY")) {
                        bodyLeft = id;
                        bodyLen = id;
                        bodyId = id;
                    }
                }
            }
        };
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
