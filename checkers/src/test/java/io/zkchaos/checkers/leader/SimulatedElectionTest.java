package io.zkchaos.checkers.leader;

import static io.zkchaos.checkers.HistoryBuilder.map;
import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Elections from a simulated ZooKeeper recipe (sequential ephemeral znodes, the smallest leads) with a nemesis that
 * pauses the leader past its session timeout and then resumes it: the paused leader learns late that it lost, so
 * leaders overlap, which must be reported and, by default, pass; a planted duplicate token must fail. Fixed seeds.
 */
class SimulatedElectionTest {

    private static final long SESSION_TIMEOUT_MS = 400;

    /** One candidate: its current process, znode and whether it believes it leads. */
    private static final class Candidate {
        final String name;
        int process;
        long seq = -1;
        boolean leading;
        long pausedUntil = -1;
        long pausedAt;
        long resignAt;
        boolean expired;

        Candidate(String name, int process) {
            this.name = name;
            this.process = process;
        }
    }

    static List<Op> simulate(long seed, long durationMs) {
        Random rnd = new Random(seed);
        List<Op> ops = new ArrayList<>();
        TreeMap<Long, Candidate> znodes = new TreeMap<>();
        List<Candidate> cs = new ArrayList<>();
        int nextProcess = 0;
        long seq = 0;
        for (int i = 0; i < 3; i++) {
            cs.add(new Candidate("c" + i, nextProcess++));
        }
        long pauseEnd = -1;
        for (long now = 0; now < durationMs; now += 10) {
            long t = now * 1_000_000L;
            // nemesis: sometimes pause the leader for longer than its session timeout
            if (pauseEnd < 0 && now > 200 && now < durationMs - 1500 && rnd.nextInt(60) == 0) {
                for (Candidate c : cs) {
                    if (c.leading) {
                        ops.add(new Op(ops.size(), Op.NEMESIS, OpType.INVOKE, "pause", null, c.name, null, t));
                        ops.add(new Op(ops.size(), Op.NEMESIS, OpType.INFO, "pause", null, c.name, null, t));
                        c.pausedAt = now;
                        c.pausedUntil = now + SESSION_TIMEOUT_MS + 100 + rnd.nextInt(500);
                        pauseEnd = c.pausedUntil;
                    }
                }
            }
            if (pauseEnd >= 0 && now >= pauseEnd) {
                ops.add(new Op(ops.size(), Op.NEMESIS, OpType.INVOKE, "heal", null, null, null, t));
                ops.add(new Op(ops.size(), Op.NEMESIS, OpType.INFO, "heal", null, "resumed", null, t));
                pauseEnd = -1;
            }
            for (Candidate c : cs) {
                boolean paused = c.pausedUntil > now;
                if (paused) {
                    if (!c.expired && now >= c.pausedAt + SESSION_TIMEOUT_MS) {
                        // the server expires the paused session: its ephemeral znode goes, the candidate cannot know
                        znodes.remove(c.seq);
                        c.expired = true;
                    }
                    continue;
                }
                if (c.pausedUntil >= 0) { // just resumed: it learns its session expired
                    c.pausedUntil = -1;
                    if (c.expired) {
                        if (c.leading) {
                            ops.add(new Op(ops.size(), c.process, OpType.INVOKE, "release",
                                    null, map("token", c.seq, "reason", "session-expired"), null, t));
                            ops.add(new Op(ops.size(), c.process, OpType.OK, "release", null, null, null, t));
                        }
                        c.leading = false;
                        c.seq = -1;
                        c.expired = false;
                        c.process = nextProcess++; // a new session, a new process
                        continue;
                    }
                }
                if (c.seq < 0) { // volunteer
                    c.seq = ++seq;
                    znodes.put(c.seq, c);
                    ops.add(new Op(ops.size(), c.process, OpType.INVOKE, "acquire", null, null, null, t));
                } else if (!c.leading && znodes.firstKey() == c.seq && rnd.nextInt(3) == 0) {
                    c.leading = true; // learns it leads (a watch fired, a little later)
                    c.resignAt = now + 100 + rnd.nextInt(600);
                    ops.add(new Op(ops.size(), c.process, OpType.OK, "acquire", null,
                            map("token", c.seq, "czxid", 1000 + c.seq, "node", c.name), null, t));
                } else if (c.leading && now >= c.resignAt) {
                    ops.add(new Op(ops.size(), c.process, OpType.INVOKE, "release", null,
                            map("token", c.seq, "reason", "closed"), null, t));
                    znodes.remove(c.seq);
                    ops.add(new Op(ops.size(), c.process, OpType.OK, "release", null, null, null, t));
                    c.leading = false;
                    c.seq = -1;
                }
            }
        }
        return ops;
    }

    @Test
    void aCorrectRecipeWithPausedLeadersPassesAndReportsItsOverlaps() {
        int overlaps = 0;
        int heals = 0;
        for (long seed = 1; seed <= 20; seed++) {
            CheckResult r = new SingleLeaderChecker(null, Duration.ofSeconds(2)).check(History.of(simulate(seed,
                    10_000)));
            assertThat(r.validity()).as("seed %d: %s", seed, r.summary()).isEqualTo(Validity.VALID);
            SingleLeaderReport d = (SingleLeaderReport) r.details();
            for (LeaderOverlap o : d.overlaps()) {
                assertThat(o.stale().endReason()).isEqualTo("session-expired");
                assertThat(o.fencingWouldReject()).isTrue();
                assertThat(o.lengthNanos()).isNotNegative(); // 0 when both happened within one 10 ms tick
            }
            overlaps += (int) d.overlaps().stream().filter(o -> o.lengthNanos() > 0).count();
            heals += d.failovers().size();
        }
        assertThat(overlaps).as("the pauses do make leaders overlap").isGreaterThan(5);
        assertThat(heals).isGreaterThan(5);
    }

    @Test
    void aPlantedDuplicateTokenFails() {
        List<Op> ops = simulate(7, 10_000);
        // give the second acquisition the first one's token
        Object firstValue = null;
        for (int i = 0; i < ops.size(); i++) {
            Op op = ops.get(i);
            if (op.type() == OpType.OK && op.f().equals("acquire")) {
                if (firstValue == null) {
                    firstValue = op.value();
                } else {
                    Map<?, ?> first = (Map<?, ?>) firstValue;
                    ops.set(i, new Op(op.index(), op.process(), op.type(), op.f(), null,
                            map("token", first.get("token"), "node", ((Map<?, ?>) op.value()).get("node")),
                            null, op.time()));
                    break;
                }
            }
        }
        CheckResult r = new SingleLeaderChecker().check(History.of(ops));
        assertThat(r.validity()).isEqualTo(Validity.INVALID);
        assertThat(((SingleLeaderReport) r.details()).tokenViolations()).extracting(TokenViolation::kind)
                .contains("duplicate-token");
    }
}
