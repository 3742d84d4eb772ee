package io.zkchaos.harness.cluster;

import io.zkchaos.checkers.servers.LogLine;
import io.zkchaos.checkers.servers.ServerLog;
import io.zkchaos.nemesis.ClockReading;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Reads a ZooKeeper server's wall clock from the server itself: ZooKeeper has no API for its clock, but it logs every
 * four-letter command it handles ({@code Processing srvr command from /127.0.0.1:34006}) with its own timestamp (the
 * harness's log pattern {@code yyyy-MM-dd'T'HH:mm:ss.SSSXXX}). The harness sends {@code srvr} from a socket whose
 * local port it knows, then finds the line naming that port in the server's log: the server's clock when it handled
 * the request, between the harness's send and its answer. The line is read by the one reader of server logs,
 * {@link ServerLog} (checkers; its {@code ServerClock} places a whole log on the run's clock afterwards: another job).
 */
public final class ClockReadBack {

    /** How much of the log's end is searched for the line. */
    private static final int TAIL_BYTES = 512 * 1024;

    private ClockReadBack() {
    }

    /**
     * The server's clock, or empty when it does not answer within {@code bound} (down, paused) or its log has no line
     * for the request within {@code bound} (a server that does not log four-letter commands).
     */
    public static Optional<ClockReading> read(InetSocketAddress server, Path log, Duration bound) {
        long sent;
        long answered;
        int port;
        try (Socket s = new Socket()) {
            int ms = (int) Math.max(1, bound.toMillis());
            s.connect(server, ms);
            s.setSoTimeout(ms);
            port = s.getLocalPort();
            sent = System.currentTimeMillis();
            s.getOutputStream().write("srvr".getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            s.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
            answered = System.currentTimeMillis();
        } catch (IOException e) {
            return Optional.empty();
        }
        String needle = "Processing srvr command from ";
        String suffix = ":" + port;
        long deadline = System.nanoTime() + bound.toNanos();
        while (true) {
            Optional<Long> stamp = find(log, needle, suffix);
            if (stamp.isPresent()) {
                return Optional.of(new ClockReading(sent, stamp.get(), answered, "srvr logged in "
                        + log.getFileName()));
            }
            if (System.nanoTime() > deadline) {
                return Optional.empty();
            }
            try {
                Thread.sleep(20); // the server writes the line as it handles the request: poll briefly
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
        }
    }

    /** The time of the last entry of the log's end whose message holds {@code needle} and ends with {@code suffix}. */
    static Optional<Long> find(Path log, String needle, String suffix) {
        if (!Files.isRegularFile(log)) {
            return Optional.empty();
        }
        String tail;
        try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "r")) {
            long from = Math.max(0, f.length() - TAIL_BYTES);
            byte[] b = new byte[(int) (f.length() - from)];
            f.seek(from);
            f.readFully(b);
            tail = new String(b, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return Optional.empty();
        }
        List<LogLine> entries = ServerLog.parse("", tail.lines().toList()).entries();
        for (int i = entries.size() - 1; i >= 0; i--) {
            String message = entries.get(i).message().stripTrailing();
            if (message.contains(needle) && message.endsWith(suffix)) {
                return Optional.of(entries.get(i).wallMillis());
            }
        }
        return Optional.empty();
    }
}
