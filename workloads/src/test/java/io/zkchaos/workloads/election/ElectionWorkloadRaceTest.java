package io.zkchaos.workloads.election;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.InMemoryRecorder;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.checkers.history.Operation;
import io.zkchaos.workloads.HistoryAssertions;
import io.zkchaos.workloads.RunContext;
import io.zkchaos.workloads.Target;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The race between a candidate's recipe thread and its leader's worker, replayed step by step without ZooKeeper: the
 * real {@link ElectionWorkload} loop runs one slot, a scripted {@link CandidateSession} stands for the recipe (the
 * test thread plays the recipe's thread and calls the listener as {@link LeaderElection} does) and a scripted worker
 * stands for the fenced-writes writer (it prepares until the test lets it write, then writes without looking again).
 *
 * <p>The interleaving (seen in {@code ElectionWorkloadIT.fencedWritesStayHonestWhenTheLeadersSessionExpiresMidRun}):
 * process 2 leads with token 0 and its worker starts preparing a write; meanwhile its own node is deleted (the
 * servers expired the session), so the recipe releases ({@code node-deleted}) and volunteers again: an
 * {@code acquire} is outstanding. The worker, done preparing, invokes its write and waits behind that acquire
 * (one operation outstanding per process). Then the session reports Expired: the acquire ends {@code info}, which
 * retires process 2. The worker's write must not be recorded under process 2 any more.
 */
class ElectionWorkloadRaceTest {

    private static final Duration STEP = Duration.ofSeconds(30);
    private static final int CONCURRENCY = 3;
    private static final int SLOT = 2;
    private static final int SUCCESSOR = SLOT + CONCURRENCY;

    @Test
    void aWriteWaitingBehindAnAcquireThatEndsInfoIsNotRecordedUnderTheRetiredProcess() throws Exception {
        History h = replay(true);
        assertStaleWriteRecordedUnderTheSuccessor(h);
    }

    @Test
    void aWriteInvokedAfterTheAcquireEndedInfoIsNotRecordedUnderTheRetiredProcess() throws Exception {
        History h = replay(false);
        assertStaleWriteRecordedUnderTheSuccessor(h);
    }

    /**
     * Runs the interleaving; {@code writeWaits}: the worker invokes its write while the acquire is outstanding (and
     * waits), else only after the acquire ended info.
     */
    private static History replay(boolean writeWaits) throws Exception {
        InMemoryRecorder rec = new InMemoryRecorder();
        BlockingQueue<ScriptedSession> sessions = new LinkedBlockingQueue<>();
        ScriptedWorker writer = new ScriptedWorker();
        CandidateFactory factory = (name, path, target, counters) -> {
            ScriptedSession s = new ScriptedSession();
            sessions.add(s);
            return s;
        };
        LeaderTask task = (process, target) -> process == SLOT ? writer : new ScriptedWorker();
        ElectionWorkload w = new ElectionWorkload("fenced-writes", "/race/election", factory, task,
                Duration.ofMinutes(1), Duration.ofMinutes(1));
        Target target = new Target("127.0.0.1:1", Map.of("n1", "127.0.0.1:1"), Duration.ofSeconds(6), Duration.ofSeconds(5));
        RunContext ctx = new RunContext(target, rec, 1L, CONCURRENCY, Duration.ofMinutes(5));
        Thread slot = new Thread(() -> {
            try {
                w.runSlot(ctx, SLOT, SLOT);
            } catch (InterruptedException e) {
                // how the test ends the slot
            }
        }, "slot-" + SLOT);
        slot.start();
        try {
            ScriptedSession first = sessions.poll(STEP.toSeconds(), TimeUnit.SECONDS);
            assertThat(first).as("the slot opened its first session").isNotNull();
            LeaderElection.Listener recipe = first.awaitCandidacy();
            Leadership term = new Leadership(0, 100, "p" + SLOT, "/race/election/n_a-0000000000");
            recipe.volunteering();
            recipe.acquired(term);
            assertThat(writer.preparing.await(STEP.toSeconds(), TimeUnit.SECONDS))
                    .as("the leader's worker began preparing a write").isTrue();
            // The servers expired the session: the leader first sees its node deleted, releases and volunteers.
            recipe.releasing(term, ReleaseReason.NODE_DELETED);
            recipe.released(term, ReleaseReason.NODE_DELETED);
            recipe.volunteering();
            if (writeWaits) {
                writer.go.countDown();
                await("the write waits behind the outstanding acquire").atMost(STEP).until(() ->
                        writer.invoking && slot.getState() == Thread.State.WAITING);
                first.expire();
            } else {
                first.expire();
                writer.go.countDown();
            }
            ScriptedSession second = sessions.poll(STEP.toSeconds(), TimeUnit.SECONDS);
            assertThat(second).as("the slot went on with a new session").isNotNull();
            second.awaitCandidacy().volunteering();
            await("the new session volunteers").atMost(STEP).until(() -> rec.history().ops().stream()
                    .anyMatch(o -> o.f().equals("acquire") && o.type() == OpType.INVOKE && o.process() != SLOT));
        } finally {
            slot.interrupt();
            slot.join(STEP.toMillis());
        }
        assertThat(slot.isAlive()).as("the slot ended when interrupted").isFalse();
        return HistoryAssertions.wellFormed(rec::history);
    }

    private static void assertStaleWriteRecordedUnderTheSuccessor(History h) {
        List<Operation> ofSlot = h.operations().stream().filter(o -> o.process() == SLOT).toList();
        assertThat(ofSlot).extracting(Operation::f).containsExactly("acquire", "release", "acquire");
        Operation info = ofSlot.get(2);
        assertThat(info.isInfo()).isTrue();
        assertThat(info.error()).isEqualTo("session-expired");
        // The worker had not learned that it lost: its write happens, as the next act of the slot's thread, under
        // the process that replaces the retired one (Jepsen's rule), before that process's own candidacy.
        List<Operation> ofSuccessor = h.operations().stream().filter(o -> o.process() == SUCCESSOR).toList();
        assertThat(ofSuccessor).extracting(Operation::f).containsExactly("fenced-write", "acquire");
        Operation write = ofSuccessor.get(0);
        assertThat(((Map<?, ?>) write.input()).get("token")).isEqualTo(0L);
        assertThat(write.invokeIndex()).isGreaterThan(info.completeIndex());
        assertThat(write.isFail()).isTrue();
    }

    /** The recipe of one session: the test thread calls its listener, as the recipe's own thread would. */
    private static final class ScriptedSession implements CandidateSession {
        private final BlockingQueue<LeaderElection.Listener> candidacies = new LinkedBlockingQueue<>();
        private volatile LeaderElection.Listener current;

        @Override
        public void startCandidacy(LeaderElection.Listener listener) {
            current = listener;
            candidacies.add(listener);
        }

        /** The session reports Expired: the candidacy ends, as {@link LeaderElection} ends it. */
        void expire() {
            LeaderElection.Listener l = current;
            current = null;
            l.ended("session-expired");
        }

        LeaderElection.Listener awaitCandidacy() throws InterruptedException {
            LeaderElection.Listener l = candidacies.poll(STEP.toSeconds(), TimeUnit.SECONDS);
            assertThat(l).as("a candidacy started").isNotNull();
            return l;
        }

        @Override
        public void resign() {
            // As LeaderElection.close after its candidacy was told nothing more: an outstanding acquire fails.
            LeaderElection.Listener l = current;
            current = null;
            if (l != null) {
                l.ended("closed");
            }
        }

        @Override
        public org.apache.zookeeper.ZooKeeper zooKeeper() {
            throw new UnsupportedOperationException("scripted: no ZooKeeper");
        }

        @Override
        public void close() {
            resign();
        }
    }

    /** The fenced-writes writer: prepares (until the test says go), then writes without looking again. */
    private static final class ScriptedWorker implements LeaderTask.Worker {
        final CountDownLatch preparing = new CountDownLatch(1);
        final CountDownLatch go = new CountDownLatch(1);
        volatile boolean invoking;

        @Override
        public boolean step(Leadership term, ProcessLog log) throws Exception {
            preparing.countDown();
            go.await();
            invoking = true;
            Op invoke = log.invoke("fenced-write", Map.of("token", term.token(), "value", 1L));
            assertThat(invoke).isNotNull();
            // The store has a newer token by now: the write is rejected, as in the integration test.
            log.complete("fenced-write", OpType.FAIL, null, "stale token " + term.token() + " < 1");
            return true;
        }

        @Override
        public void close() {
        }
    }
}
