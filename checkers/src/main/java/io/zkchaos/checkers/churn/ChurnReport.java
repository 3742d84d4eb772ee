package io.zkchaos.checkers.churn;

import io.zkchaos.checkers.Findings;
import io.zkchaos.checkers.KindSet;
import io.zkchaos.checkers.evidence.PromiseTally;
import io.zkchaos.checkers.evidence.TestsPromises;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;

/**
 * What {@link ChurnEphemeralsChecker} found.
 *
 * @param ended        the churn sessions that ended, by the way they ended ({@code close}, {@code expire},
 *                     {@code crash}), each way present
 * @param live         sessions that answered after the reads: alive when their ephemerals were read
 * @param created      ephemerals whose create was acknowledged
 * @param left         ephemerals of ended sessions still held by a server past their bound
 * @param missing      acknowledged ephemerals of live sessions that a server's read lacked
 * @param unjudged     ephemerals of ended sessions seen by a read taken before their bound had passed, or of
 *                     sessions that neither ended nor answered after the read (neither held against the run nor
 *                     cleared)
 * @param unread       servers whose last {@code churn-read} was not ok
 * @param marginMillis beyond each session's timeout, after its end and after the final heal, how long its ephemerals
 *                     may live
 */
public record ChurnReport(Map<String, Long> ended, long live, long created, List<Breach> left, List<Breach> missing,
                          int unjudged, List<String> unread, long marginMillis)
        implements Findings, TestsPromises {

    public ChurnReport {
        ended = Map.copyOf(ended);
        left = List.copyOf(left);
        missing = List.copyOf(missing);
        unread = List.copyOf(unread);
    }

    /** Ephemerals judged by how their session ended (closed, expired, crashed) and, for live sessions, present. */
    @Override
    public List<PromiseTally> promises() {
        return List.of(
                new PromiseTally("closed", "a closed session's ephemerals go within timeout + margin",
                        ended.getOrDefault("close", 0L)),
                new PromiseTally("expired", "an expired session's ephemerals go within timeout + margin",
                        ended.getOrDefault("expire", 0L)),
                new PromiseTally("crashed", "a crashed client's ephemerals go within timeout + margin",
                        ended.getOrDefault("crash", 0L)),
                new PromiseTally("live", "a live session's acknowledged ephemerals exist", live));
    }

    /**
     * One ephemeral where it should not be, or missing where it should be.
     *
     * @param node        the server read
     * @param path        the ephemeral
     * @param session     its owner session, as ZooKeeper prints it ({@code 0x...})
     * @param readIndex   history index of the read
     * @param explanation one line for people
     */
    public record Breach(String node, String path, String session, long readIndex, String explanation) {
    }

    @Override
    public SortedSet<String> findingKinds() {
        return new KindSet().ifAny(left, "ephemeral-left").ifAny(missing, "ephemeral-missing").build();
    }
}
