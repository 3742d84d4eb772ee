package io.zkchaos.harness.cluster;

import io.zkchaos.fle.BugPaths;
import io.zkchaos.harness.cluster.NodeStatus.Mode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Asks a server about itself with ZooKeeper's four-letter words on its client port (they must be enabled with
 * {@code 4lw.commands.whitelist}; the fle nodes answer {@code srvr} the same way, with an {@code Epoch:} line more). The harness asks servers directly, not through the fault proxy, so that it
 * still sees a server its clients cannot reach.
 */
public final class FourLetterWords {

    private FourLetterWords() {
    }

    /**
     * Sends {@code word} and returns the whole answer.
     *
     * @throws IOException if the server cannot be reached or does not answer within {@code timeout}
     */
    public static String ask(InetSocketAddress server, String word, Duration timeout) throws IOException {
        try (Socket s = new Socket()) {
            int ms = (int) Math.max(1, timeout.toMillis());
            s.connect(server, ms);
            s.setSoTimeout(ms);
            s.getOutputStream().write(word.getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            in.transferTo(out);
            return out.toString(StandardCharsets.UTF_8);
        }
    }

    /** The node's status from {@code srvr}; {@link Mode#UNREACHABLE} with the error when it does not answer. */
    public static NodeStatus srvr(String node, InetSocketAddress server, Duration timeout) {
        String answer;
        try {
            answer = ask(server, "srvr", timeout);
        } catch (IOException e) {
            return new NodeStatus(node, Mode.UNREACHABLE, -1, e.toString());
        }
        return parseSrvr(node, answer);
    }

    /** Parses a {@code srvr} answer of {@code node} (however it was asked). */
    public static NodeStatus parseSrvr(String node, String answer) {
        Mode mode = null;
        long zxid = -1;
        long epoch = -1; // the fle nodes state their currentEpoch; ZooKeeper's epoch is its zxid's high half
        Map<String, Long> bugPaths = Map.of();
        for (String line : answer.split("\n")) {
            String l = line.trim();
            if (l.startsWith("Mode:")) {
                String m = l.substring(5).trim();
                mode = switch (m) {
                    case "leader" -> Mode.LEADER;
                    case "follower" -> Mode.FOLLOWER;
                    case "observer" -> Mode.OBSERVER;
                    case "standalone" -> Mode.STANDALONE;
                    default -> Mode.NOT_SERVING;
                };
            } else if (l.startsWith("Epoch:")) {
                try {
                    epoch = Long.parseLong(l.substring(6).trim());
                } catch (NumberFormatException e) {
                    epoch = -1;
                }
            } else if (l.startsWith(BugPaths.SRVR_LINE)) {
                bugPaths = bugPaths(l.substring(BugPaths.SRVR_LINE.length()));
            } else if (l.startsWith("Zxid:")) {
                try {
                    zxid = Long.decode(l.substring(5).trim());
                } catch (NumberFormatException e) {
                    zxid = -1;
                }
            }
        }
        if (mode == null) {
            if (answer.contains("not currently serving")) {
                return new NodeStatus(node, Mode.NOT_SERVING, -1, -1, null, bugPaths);
            }
            if (answer.contains("not in the whitelist")) {
                return new NodeStatus(node, Mode.UNREACHABLE, -1, "srvr is not whitelisted: " + answer.trim());
            }
            return new NodeStatus(node, Mode.UNREACHABLE, -1,
                    answer.isEmpty() ? "empty srvr answer" : "unreadable srvr answer: " + answer.trim());
        }
        NodeStatus status = epoch >= 0 ? new NodeStatus(node, mode, zxid, epoch, null)
                : new NodeStatus(node, mode, zxid, null);
        return status.withBugPaths(bugPaths);
    }

    /**
     * The fle nodes' {@code Bug code paths: ack-before-durable 412, no-epoch-fencing 0} (after the colon). The nodes
     * write it themselves ({@link BugPaths#show}); a part that cannot be read is left out.
     */
    private static Map<String, Long> bugPaths(String counts) {
        Map<String, Long> out = new LinkedHashMap<>();
        for (String part : counts.split(",")) {
            String[] flagCount = part.trim().split("\\s+");
            if (flagCount.length == 2) {
                try {
                    out.put(flagCount[0], Long.parseLong(flagCount[1]));
                } catch (NumberFormatException e) {
                    // left out
                }
            }
        }
        return out;
    }
}
