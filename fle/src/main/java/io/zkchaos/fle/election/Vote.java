package io.zkchaos.fle.election;

import io.zkchaos.fle.Zxid;

/**
 * A vote: the server it proposes as leader ({@code leader}), that server's last zxid and epoch ({@code peerEpoch}),
 * the round it was cast in ({@code electionEpoch}, the sender's logical clock) and the sender's state.
 */
public record Vote(long leader, long zxid, long electionEpoch, long peerEpoch, ServerState state) {

    /**
     * Whether two votes count as the same in a tally, as ZooKeeper's {@code Vote.equals}: while either is LOOKING,
     * every field but the state must match (so votes of different rounds never add up); between FOLLOWING/LEADING
     * votes only the leader and its epoch, since those servers' zxids move on after the election.
     *
     * @param ignoreElectionEpoch the {@code mix-election-epochs} bug: rounds are not compared
     */
    public boolean sameAs(Vote o, boolean ignoreElectionEpoch) {
        if (state == ServerState.LOOKING || o.state == ServerState.LOOKING) {
            return leader == o.leader && zxid == o.zxid && peerEpoch == o.peerEpoch
                    && (ignoreElectionEpoch || electionEpoch == o.electionEpoch);
        }
        return leader == o.leader && peerEpoch == o.peerEpoch;
    }

    public Vote withState(ServerState s) {
        return new Vote(leader, zxid, electionEpoch, peerEpoch, s);
    }

    public Vote withPeerEpoch(long e) {
        return new Vote(leader, zxid, electionEpoch, e, state);
    }

    @Override
    public String toString() {
        return "(leader " + leader + ", zxid " + Zxid.show(zxid) + ", peerEpoch " + peerEpoch + ", round "
                + electionEpoch + ", " + state + ")";
    }
}
