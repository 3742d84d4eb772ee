package io.zkchaos.workloads.sessions;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.CheckerCatalog;
import io.zkchaos.checkers.CheckerOptions;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.InMemoryRecorder;
import io.zkchaos.checkers.history.Operation;
import io.zkchaos.checkers.sessions.SessionGuaranteesChecker;
import io.zkchaos.checkers.sessions.SessionsReport;
import io.zkchaos.workloads.RunContext;
import io.zkchaos.workloads.SharedEnsemble;
import io.zkchaos.workloads.Target;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The sessions workload on a real 3-node ensemble, judged by its checker. Without a nemesis, a session ends by its own
 * close or by another handle's close of it (one in four), which its client learns as an expiry.
 */
class SessionsWorkloadIT {

    @RegisterExtension
    static final SharedEnsemble ensemble = new SharedEnsemble(3);

    private static History run(SessionsWorkload w, long seed) throws Exception {
        return run(w, seed, Duration.ofSeconds(3));
    }

    private static History run(SessionsWorkload w, long seed, Duration duration) throws Exception {
        Target target = ensemble.get().target(Duration.ofSeconds(4), Duration.ofSeconds(10));
        w.setup(target);
        InMemoryRecorder rec = new InMemoryRecorder();
        w.run(new RunContext(target, rec, seed, 4, duration));
        return wellFormed(rec.history());
    }

    /**
     * Every invoke completed, and after an info a process records nothing but its session's events (the sessions
     * workload's convention: it watches its session to its end).
     */
    private static History wellFormed(History h) {
        Map<Integer, Operation> infoOf = new HashMap<>();
        for (Operation op : h.operations()) {
            assertThat(op.completeIndex()).as("completed: %s", op).isGreaterThanOrEqualTo(0);
            if (infoOf.containsKey(op.process())) {
                assertThat(op.f()).as("process %d acts after its info %s: %s", op.process(),
                        infoOf.get(op.process()), op).isEqualTo("event");
            }
            if (op.isInfo()) {
                infoOf.put(op.process(), op);
            }
        }
        return h;
    }

    private static CheckResult judge(History h) {
        return CheckerCatalog.create(CheckerCatalog.SESSION_GUARANTEES, CheckerOptions.defaults()).check(h);
    }

    @Test
    void closedAndExpiredSessionsKeepTheirPromises() throws Exception {
        History h = run(new SessionsWorkload("/it/sessions", 0), 5L);
        CheckResult r = judge(h);
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
        SessionsReport d = (SessionsReport) r.details();
        assertThat(d.closed()).as(r.summary()).isPositive();
        assertThat(d.expiredByOp()).as(r.summary()).isPositive();
        assertThat(d.expiredEvents()).as("clients told Expired after another handle closed their session: %s",
                r.summary()).isPositive();
        assertThat(d.ephemerals()).as(r.summary()).isPositive();
        // After another handle's close, the one more create each such session tries never succeeds.
        assertThat(h.operations()).filteredOn(o -> o.f().equals("create") && o.isOk()).isNotEmpty();
    }

    /**
     * With no nemesis, the workload cuts a share of its sessions off from every server itself (their relays
     * silenced past their timeout): the servers expire them, the clients hear Expired, and reads past the timeout
     * plus the bound follow their ephemerals to their end.
     */
    @Test
    void sessionsTheWorkloadCutsOffAreExpiredByTheServersAndFollowedToTheirEnd() throws Exception {
        History h = run(new SessionsWorkload("/it/sessions-cut", 40), 11L, Duration.ofSeconds(14));
        CheckResult r = judge(h);
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.VALID);
        SessionsReport d = (SessionsReport) r.details();
        assertThat(d.cutByWorkload()).as(r.summary()).isPositive();
        assertThat(d.expiredFollowed()).as("expired sessions whose ephemerals a later read followed: %s",
                r.summary()).isPositive();
        assertThat(d.promises()).filteredOn(p -> p.id().equals(SessionsReport.EXPIRED)).singleElement()
                .satisfies(p -> assertThat(p.tested()).isEqualTo(d.expiredFollowed()));
        List<Operation> cuts = h.operations().stream().filter(o -> o.f().equals("cut")).toList();
        assertThat(cuts).isNotEmpty().allSatisfy(c -> {
            assertThat(c.isOk()).as("%s", c).isTrue();
            long timeout = ((Number) ((Map<?, ?>) h.operations().stream().filter(o -> o.process() == c.process()
                    && o.f().equals("open")).findFirst().orElseThrow().output()).get("timeout")).longValue();
            assertThat(c.completeTime() - c.invokeTime()).as("silent past the timeout: %s", c)
                    .isGreaterThan(TimeUnit.MILLISECONDS.toNanos(timeout) + SessionGuaranteesChecker.EXPIRY_SLACK
                            .toNanos());
            assertThat(h.operations()).as("process %d's client was told Expired after its cut", c.process())
                    .anySatisfy(e -> {
                        assertThat(e.process()).isEqualTo(c.process());
                        assertThat(e.f()).isEqualTo("event");
                        assertThat(((Map<?, ?>) e.input()).get("state")).isEqualTo("Expired");
                    });
        });
    }

    @Test
    void aClientThatReconnectsSilentlyAfterItsSessionExpiredIsCaught() throws Exception {
        CheckResult r = judge(run(new SessionsWorkload("/it/sessions-silent", 0).silentlyReconnecting(), 5L));
        assertThat(r.validity()).as(r.summary()).isEqualTo(Validity.INVALID);
        assertThat(((SessionsReport) r.details()).violationsByRule()).as(r.summary()).containsKey("after-end");
        assertThat(r.summary()).containsPattern("process \\d+ \\(session 0x[0-9a-f]+\\)'s create of e\\d+-\\d+ "
                + "\\(index \\d+-\\d+\\) succeeded, though another handle's close was acknowledged at index \\d+");
    }
}
