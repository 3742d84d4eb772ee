package io.zkchaos.harness.process;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;

/** The end of a process's log, for error messages that must name why a server or client process failed. */
public final class LogTail {

    private LogTail() {
    }

    /** The last {@code lines} lines of {@code log} (read from its last 16 KiB), or why it cannot be read. */
    public static String of(Path log, int lines) {
        if (!Files.exists(log)) {
            return "(no log file " + log + ")";
        }
        try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "r")) {
            long len = f.length();
            long from = Math.max(0, len - 16_384);
            f.seek(from);
            byte[] buf = new byte[(int) (len - from)];
            f.readFully(buf);
            Deque<String> tail = new ArrayDeque<>();
            for (String l : new String(buf, StandardCharsets.UTF_8).split("\n")) {
                tail.addLast(l);
                if (tail.size() > lines) {
                    tail.removeFirst();
                }
            }
            return String.join("\n", tail);
        } catch (IOException e) {
            return "(cannot read " + log + ": " + e + ")";
        }
    }
}
