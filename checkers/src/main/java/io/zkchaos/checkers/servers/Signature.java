package io.zkchaos.checkers.servers;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What makes two logged exceptions the same one: the class of the outermost exception and of its root cause, and the
 * top frames in the server's own code, without line numbers, so that one signature spans releases and the JDK's own
 * frames (which differ between JDKs) do not split it. A log line without an exception that a rule names (a server
 * giving up: "Severe unrecoverable error") has the rule's pattern for a signature.
 *
 * @param outer  the outermost exception's class, or null for a line without one
 * @param root   the root cause's class (the same as {@code outer} when there is no cause), or null
 * @param frames up to {@link #TOP_FRAMES} frames in the server's own code, innermost first ({@code class.method}),
 *               the root cause's first, then those of the exceptions that wrap it
 * @param line   for a line without an exception, the pattern of the rule that named it; else null
 */
public record Signature(String outer, String root, List<String> frames, String line) {

    /** How many of the server's own frames a signature keeps. */
    public static final int TOP_FRAMES = 3;
    /**
     * The server's own code: ZooKeeper's and the project's fle nodes. ZooKeeper's jute serialisation
     * ({@code org.apache.jute.}) is left out on purpose: it is in nearly every network trace and would hide the
     * frames that say which part of the server read ({@code Learner.readPacket} or {@code LearnerHandler.run}).
     */
    public static final List<String> OWN_CODE = List.of("org.apache.zookeeper.", "io.zkchaos.fle.");

    public Signature {
        frames = List.copyOf(frames);
        if (outer == null && line == null) {
            throw new IllegalArgumentException("a signature needs an exception or a line");
        }
    }

    /** The signature of a cause chain (outermost first, not empty). */
    public static Signature of(List<Thrown> chain) {
        if (chain.isEmpty()) {
            throw new IllegalArgumentException("no exception in the chain");
        }
        Set<String> own = new LinkedHashSet<>();
        for (int i = chain.size() - 1; i >= 0 && own.size() < TOP_FRAMES; i--) {
            for (String frame : chain.get(i).frames()) {
                if (OWN_CODE.stream().anyMatch(frame::startsWith)) {
                    own.add(frame);
                    if (own.size() == TOP_FRAMES) {
                        break;
                    }
                }
            }
        }
        return new Signature(chain.get(0).className(), chain.get(chain.size() - 1).className(),
                new ArrayList<>(own), null);
    }

    /** The signature of a line without an exception, named by a rule's pattern. */
    public static Signature ofLine(String pattern) {
        return new Signature(null, null, List.of(), Objects.requireNonNull(pattern, "pattern"));
    }

    /**
     * The signature as one line: {@code java.net.SocketException at Learner.readPacket < Follower.followLeader},
     * {@code java.lang.RuntimeException caused by java.lang.NullPointerException at ...}, {@code line "Severe
     * unrecoverable error"}: its identity (two equal signatures have equal keys).
     */
    public String key() {
        if (outer == null) {
            return "line \"" + line + "\"";
        }
        StringBuilder k = new StringBuilder(outer);
        if (!root.equals(outer)) {
            k.append(" caused by ").append(root);
        }
        if (!frames.isEmpty()) {
            k.append(" at ").append(String.join(" < ", frames.stream().map(Signature::shortFrame).toList()));
        }
        return k.toString();
    }

    /** {@code org.apache.zookeeper.server.quorum.Learner.readPacket} as {@code Learner.readPacket}. */
    static String shortFrame(String frame) {
        int method = frame.lastIndexOf('.');
        int cls = method <= 0 ? -1 : frame.lastIndexOf('.', method - 1);
        return frame.substring(cls + 1);
    }
}
