package io.zkchaos.fle.election;

import io.zkchaos.fle.BugPaths;
import io.zkchaos.fle.Bugs;
import io.zkchaos.fle.Timing;
import io.zkchaos.fle.sim.SimClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * One {@link FastLeaderElection} alone on a virtual clock: the test plays every other server by hand, delivering the
 * notifications it chooses and reading what the election sends and decides.
 */
final class FleHarness implements FastLeaderElection.Host, ElectionTransport {

    record Sent(long time, long to, Vote vote) {
    }

    final SimClock clock = new SimClock();
    final SimClock.Lane lane = clock.lane("fle");
    final long myId;
    final FastLeaderElection fle;
    final BugPaths bugPaths;
    final List<Sent> sent = new ArrayList<>();
    final List<Vote> decisions = new ArrayList<>();
    ServerState state = ServerState.LOOKING;
    Vote currentVote;
    long lastZxid;
    long epoch;
    boolean delivered = true;
    int connectAlls;

    FleHarness(long myId, Set<Long> voters, long lastZxid, long epoch, Timing timing, Bugs bugs) {
        this.myId = myId;
        this.lastZxid = lastZxid;
        this.epoch = epoch;
        this.bugPaths = new BugPaths(bugs);
        this.fle = new FastLeaderElection(this, voters, lane, this, timing, bugPaths);
    }

    FleHarness(long myId, Set<Long> voters, long lastZxid, long epoch) {
        this(myId, voters, lastZxid, epoch, Timing.DEFAULT, Bugs.NONE);
    }

    void start() {
        lane.execute(fle::lookForLeader);
        clock.run(Duration.ZERO);
    }

    /** Delivers a notification from {@code from} now and runs what is due now. */
    void deliver(long from, Vote v) {
        lane.execute(() -> fle.onNotification(from, new Notification(v)));
        clock.run(Duration.ZERO);
    }

    void run(long ms) {
        clock.run(Duration.ofMillis(ms));
    }

    /** The votes sent to {@code to}, in order. */
    List<Vote> sentTo(long to) {
        return sent.stream().filter(s -> s.to() == to).map(Sent::vote).toList();
    }

    @Override
    public long myId() {
        return myId;
    }

    @Override
    public ServerState state() {
        return state;
    }

    @Override
    public Vote currentVote() {
        return currentVote;
    }

    @Override
    public long lastLoggedZxid() {
        return lastZxid;
    }

    @Override
    public long currentEpoch() {
        return epoch;
    }

    @Override
    public void decided(Vote vote, ServerState newState) {
        decisions.add(vote);
        state = newState;
        currentVote = vote;
    }

    @Override
    public void start(Receiver receiver) {
    }

    @Override
    public void send(long toSid, Notification n) {
        if (toSid == myId) {
            lane.execute(() -> fle.onNotification(myId, n));
        } else {
            sent.add(new Sent(clock.now(), toSid, n.vote()));
        }
    }

    @Override
    public boolean haveDelivered() {
        return delivered;
    }

    @Override
    public void connectAll() {
        connectAlls++;
    }
}
