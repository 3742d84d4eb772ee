package io.zkchaos.harness.run.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.zkchaos.harness.run.Preload;
import io.zkchaos.workloads.ZnodeAcls;

/**
 * What shapes the load on the servers beside the workload's own operations: what they hold before the main phase,
 * under which ACLs, and the sessions that come and go. ZooKeeper only (the fle nodes hold a key-value store without
 * znodes, ACLs or sessions: {@link RunConfig} refuses each there). Saved in {@code config.json} under {@code load}
 * (files written before issue 36 kept these under {@code storage}, and still read).
 *
 * @param preload the znodes the harness creates before the main phase ({@code --preload}), null for none
 * @param acls    the ACLs on the workload's znodes ({@code --acl}): open ({@code OPEN_ACL_UNSAFE}, the default), or
 *                per-client (each client session's znodes under an ACL of its own digest identity, so that the
 *                servers' ACL cache holds many entries that snapshots write and restarts rebuild; {@link ZnodeAcls});
 *                ZooKeeper's built-in workloads only
 * @param churn   session churn ({@code --churn N}): N lanes of short sessions with ephemerals beside the workload
 *                through the main phase ({@code io.zkchaos.workloads.churn.Churn}), so that the servers' session
 *                tables and ephemerals change while they snapshot, crash and sync; null (or 0) for none
 */
public record LoadPart(@JsonInclude(JsonInclude.Include.NON_NULL) Preload preload,
                       @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = OpenAcls.class)
                       ZnodeAcls acls,
                       @JsonInclude(JsonInclude.Include.NON_NULL) Integer churn) {

    /** The most churn lanes: each holds a session, its relay and its client's threads. */
    public static final int MAX_CHURN = 64;

    /** Nothing preloaded, open ACLs, no churn: the default, which {@code config.json} leaves out. */
    public static final LoadPart NONE = new LoadPart(null, ZnodeAcls.OPEN, null);

    public LoadPart {
        acls = acls == null ? ZnodeAcls.OPEN : acls;
        if (churn != null && (churn < 0 || churn > MAX_CHURN)) {
            throw new IllegalArgumentException("churn must be 0.." + MAX_CHURN + " lanes of short sessions, got "
                    + churn);
        }
        churn = churn == null || churn == 0 ? null : churn;
    }

    public static LoadPart defaults() {
        return NONE;
    }

    /** The churn lanes, 0 for none. */
    public int churnLanes() {
        return churn == null ? 0 : churn;
    }

    /** Leaves open ACLs out of the saved part, as {@code config.json} has them (files keep their older shape). */
    static final class OpenAcls {
        @Override
        public boolean equals(Object o) {
            return o == null || o == ZnodeAcls.OPEN;
        }

        @Override
        public int hashCode() {
            return 0;
        }
    }

    /** Leaves the default load out of a saved configuration: files without it keep their shape. */
    static final class None {
        @Override
        public boolean equals(Object o) {
            return o == null || NONE.equals(o);
        }

        @Override
        public int hashCode() {
            return 0;
        }
    }
}
