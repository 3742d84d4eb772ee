package io.zkchaos.nemesis.faults;

import io.zkchaos.nemesis.ClientControl;
import io.zkchaos.nemesis.Fault;
import io.zkchaos.nemesis.FaultRecord;
import io.zkchaos.nemesis.NemesisTarget;
import io.zkchaos.nemesis.NodeState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The faults of {@link Fault.Family#CLIENT}: client processes ({@link ClientControl}) paused, killed or their wall
 * clocks moved; undone by {@link #resumeClients}, {@link #resetClientClocks} or nothing ({@link #clientsReplaced}).
 * Every start acts, then returns what it did as a {@link FaultRecord} named for the fault being run.
 *
 * <p>Not thread-safe: one nemesis drives one cluster.
 */
public final class ClientFaults {

    private final Acting on;

    /** @param fault the fault being run: the name its records carry */
    public ClientFaults(NemesisTarget target, String fault) {
        this.on = new Acting(target, fault);
    }

    /** SIGSTOPs the client process that holds leadership now. */
    public FaultRecord pauseLeaderClient() {
        return on.onEach("pause client", List.of(requireClientLeader()), on.clients::pause);
    }

    /** SIGSTOPs a random running client process. */
    public FaultRecord pauseRandomClient() {
        return on.onEach("pause client", List.of(on.choices.one("client", runningClients(), c -> c)),
                on.clients::pause);
    }

    /** SIGKILLs the client process that holds leadership now (a new client process takes its place). */
    public FaultRecord killLeaderClient() {
        return on.onEach("kill client", List.of(requireClientLeader()), on.clients::kill);
    }

    /**
     * Skews every running client process's wall clock by its own seeded offset in {@code [-max, +max]} (millisecond
     * steps); {@link #resetClientClocks} ends it.
     */
    public FaultRecord skewClientClocks(Duration max) {
        Map<String, Duration> offsets = new LinkedHashMap<>();
        for (String client : runningClients()) {
            offsets.put(client, Duration.ofMillis(on.choices.upTo("clock-offset-ms", 2 * max.toMillis())
                    - max.toMillis()));
        }
        return ClockFaults.moveClocks(on.fault, "skew the clock of client", offsets, on.clients::setClockOffsets);
    }

    /**
     * Jumps one random running client process's wall clock forward or back (a seeded sign) by a seeded amount in
     * {@code [least, most]}; {@link #resetClientClocks} ends it.
     */
    public FaultRecord bumpClientClock(Duration least, Duration most) {
        String client = on.choices.one("client", runningClients(), c -> c);
        return ClockFaults.moveClocks(on.fault, "bump the clock of client", Map.of(client, on.signed(least, most)),
                on.clients::setClockOffsets);
    }

    // ---- undoing ----

    /** Sets every moved client clock back to the true time, all at once: recorded as {@code client-clock-reset}. */
    public FaultRecord resetClientClocks() {
        return ClockFaults.resetClocks("client-clock-reset", "reset the clock of client", on.clients.clockOffsets(),
                on.clients::setClockOffsets);
    }

    /** SIGCONTs every paused client process: recorded as {@code resume-clients}. */
    public FaultRecord resumeClients() {
        List<String> paused = on.clients.clients().stream()
                .filter(c -> on.clients.state(c) == NodeState.PAUSED).toList();
        return Acting.onEachIndependently("resume-clients", "resume client", paused, on.clients::resume);
    }

    /**
     * Undoes nothing: the harness replaced a killed client process with a new one the moment it died. Recorded as
     * {@code clients-replaced}.
     */
    public FaultRecord clientsReplaced() {
        return new FaultRecord("clients-replaced", "nothing to undo: a new client process took each killed one's "
                + "place when it died", List.of(), List.of(), new java.util.TreeMap<>());
    }

    private String requireClientLeader() {
        return on.choices.leader("client-leader", on.cluster, on.clients::leader).orElseThrow(() ->
                new IllegalStateException("no client process leads now (clients " + on.clients.clients()
                        + "): cannot aim a fault at the leader"));
    }

    private List<String> runningClients() {
        List<String> r = new ArrayList<>(on.clients.clients().stream()
                .filter(c -> on.clients.state(c) == NodeState.RUNNING).toList());
        if (r.isEmpty()) {
            throw new IllegalStateException("no client process is running");
        }
        return r;
    }
}
