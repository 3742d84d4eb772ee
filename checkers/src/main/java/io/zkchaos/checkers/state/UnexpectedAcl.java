package io.zkchaos.checkers.state;

import java.util.List;

/**
 * A workload znode whose final ACL is not the one the run gives it ({@code --acl per-client}: see
 * {@link WorkloadAcls}).
 *
 * @param path        the znode
 * @param nodes       the servers that hold it with that ACL
 * @param acl         the ACL, as canonical text
 * @param explanation one line for people
 */
public record UnexpectedAcl(String path, List<String> nodes, String acl, String explanation) {

    public UnexpectedAcl {
        nodes = List.copyOf(nodes);
    }
}
