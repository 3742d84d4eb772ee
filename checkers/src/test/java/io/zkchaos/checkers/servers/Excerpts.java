package io.zkchaos.checkers.servers;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Excerpts of real server logs, cut from real runs of {@code ./zkchaos run} (the harness's start markers kept):
 * <ul>
 *   <li>{@code zk-3.9.5-kill-leader-n3.log}: ZooKeeper 3.9.5 (logback), set workload under kill-leader, seed 3: two
 *       starts, a follower's DIFF sync and broadcast, EOF/reset/interrupt traces, the leader's LearnerHandler
 *       errors when its followers went;</li>
 *   <li>{@code zk-3.5.7-kill-leader-n2.log}: ZooKeeper 3.5.7 (log4j 1.2, comma before the milliseconds), the same
 *       scenario: DIFF syncs and "Learner received UPTODATE message", "shutdown Follower" stacks;</li>
 *   <li>{@code fle-isolate-leader-n1.log}: the project's fle nodes under isolate-leader, a whole log;</li>
 *   <li>{@code zk-3.9.5-planted-npe-n1.log}: real 3.9.5 lines with planted programming errors in ZooKeeper's shape:
 *       a NullPointerException in Learner.syncWithLeader twice, at the line numbers of two releases, and a
 *       "Severe unrecoverable error" caused by an IllegalStateException.</li>
 * </ul>
 */
final class Excerpts {

    static final String ZK395 = "zk-3.9.5-kill-leader-n3.log";
    static final String ZK357 = "zk-3.5.7-kill-leader-n2.log";
    static final String FLE = "fle-isolate-leader-n1.log";
    static final String PLANTED_NPE = "zk-3.9.5-planted-npe-n1.log";

    private Excerpts() {
    }

    static List<String> lines(String name) {
        try (InputStream in = Excerpts.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("no test resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ServerLog log(String node, String name) {
        return ServerLog.parse(node, lines(name));
    }
}
