package io.zkchaos.checkers.state;

import io.zkchaos.checkers.Findings;
import io.zkchaos.checkers.KindSet;
import io.zkchaos.checkers.evidence.PromiseTally;
import io.zkchaos.checkers.evidence.TestsPromises;
import java.util.List;
import java.util.SortedSet;

/**
 * What {@link FinalStateChecker} found.
 *
 * @param servers       each server that was read, with its last tree's size and zxid
 * @param unread        servers whose tree could not be read (their last {@code read-tree} was not ok)
 * @param groups        the servers grouped by identical trees, the largest group first; one group when all agree
 * @param differences   the znodes the groups disagree on (at most {@link FinalStateChecker#MAX_DIFFERENCES})
 * @param totalDifferences how many znodes differ in all
 * @param ephemerals    ephemerals of ended sessions still held past the bound
 * @param unjudged      ephemerals seen by a read taken before the bound had passed (neither held against the run
 *                      nor cleared)
 * @param boundNanos    session timeout + margin: how long after the first final read an ephemeral must be gone
 * @param acls          workload znodes whose ACL is not the one the run gives them ({@code --acl per-client});
 *                      empty for other runs and in older results
 */
public record FinalStateReport(List<Server> servers, List<String> unread, List<List<String>> groups,
                               List<TreeDifference> differences, int totalDifferences,
                               List<LeftEphemeral> ephemerals, int unjudged, long boundNanos,
                               List<UnexpectedAcl> acls)
        implements Findings, TestsPromises {

    public FinalStateReport {
        acls = acls == null ? List.of() : List.copyOf(acls);
    }

    /** One tree judged per server read. */
    @Override
    public List<PromiseTally> promises() {
        return List.of(new PromiseTally("trees", "every server holds the same data tree after the heal, no ephemeral "
                + "of an ended session past its bound", servers.size()));
    }

    /** Without ACLs judged. */
    public FinalStateReport(List<Server> servers, List<String> unread, List<List<String>> groups,
                            List<TreeDifference> differences, int totalDifferences, List<LeftEphemeral> ephemerals,
                            int unjudged, long boundNanos) {
        this(servers, unread, groups, differences, totalDifferences, ephemerals, unjudged, boundNanos, List.of());
    }

    /**
     * One server's last tree, summed up.
     *
     * @param node       the server
     * @param readIndex  history index of its last ok {@code read-tree}
     * @param round      the round it came from
     * @param znodes     how many znodes it holds
     * @param ephemerals how many of them are ephemeral
     * @param zxid       the newest zxid that shaped the tree, in hex
     */
    public record Server(String node, long readIndex, long round, int znodes, int ephemerals, String zxid) {
    }

    @Override
    public SortedSet<String> findingKinds() {
        return new KindSet().when(groups != null && groups.size() > 1, "diverged").ifAny(ephemerals, "ephemeral-left")
                .build();
    }
}
