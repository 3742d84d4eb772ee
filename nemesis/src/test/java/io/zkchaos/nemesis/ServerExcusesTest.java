package io.zkchaos.nemesis;

import static io.zkchaos.checkers.servers.ServerBehaviour.EXIT;
import static io.zkchaos.checkers.servers.ServerBehaviour.REJOIN;
import static io.zkchaos.checkers.servers.ServerBehaviour.STALL;
import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.servers.FaultExcuses;
import io.zkchaos.checkers.servers.FaultWindow;
import io.zkchaos.checkers.servers.FaultWindows;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.codec.HistoryFiles;
import io.zkchaos.checkers.codec.JsonLinesRecorder;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class ServerExcusesTest {

    private static final Duration SESSION = Duration.ofSeconds(4);
    private static final Duration ELECTION = Duration.ofSeconds(2);
    private final Function<String, FaultExcuses> declared = ServerExcuses.forRun(SESSION, ELECTION);

    @Test
    void everyBuiltInFaultIsDeclared() {
        for (Fault f : Faults.all()) {
            assertThat(declared.apply(f.name())).as(f.name()).isNotNull();
        }
        assertThat(declared.apply("no-such-fault")).isNull();
    }

    @Test
    void eachFamilyExcusesWhatItsStopUndoes() {
        assertThat(declared.apply("kill-leader")).isEqualTo(FaultExcuses.onServers(Duration.ofSeconds(10), EXIT,
                REJOIN, STALL));
        assertThat(declared.apply("isolate-follower").excuses()).containsExactlyInAnyOrder(REJOIN, STALL);
        assertThat(declared.apply("slow-network").excuses()).containsExactlyInAnyOrder(REJOIN, STALL);
        assertThat(declared.apply("pause-leader").excuses()).containsExactlyInAnyOrder(REJOIN, STALL);
        assertThat(declared.apply("disk-eio-write").excuses()).containsExactlyInAnyOrder(EXIT, REJOIN, STALL);
        assertThat(declared.apply("clock-bump").excuses()).containsExactlyInAnyOrder(REJOIN, STALL);
    }

    @Test
    void someFaultsDeclareTheirOwn() {
        assertThat(declared.apply("disk-slow-fsync").excuses()).as("a slow disk fails no write")
                .containsExactlyInAnyOrder(REJOIN, STALL);
        assertThat(declared.apply("client-partition").excuses()).as("client links cut: only the writes stall")
                .containsExactly(STALL);
        assertThat(declared.apply("cut-during-sync").excuses()).as("a protocol moment: crash's own, stall among them")
                .containsExactlyInAnyOrder(EXIT, REJOIN, STALL);
    }

    @Test
    void faultsOnClientProcessesActOnNoServer() {
        Faults.all().stream().filter(f -> f.is(Fault.Trait.ON_CLIENTS))
                .forEach(f -> assertThat(declared.apply(f.name())).as(f.name())
                        .isEqualTo(FaultExcuses.ON_CLIENTS_ONLY));
        assertThat(declared.apply("client-partition").onServers()).isTrue();
    }

    @Test
    void theDriversRecordsBecomeWindowsWithTheDeclaredExcuses(@TempDir Path dir) {
        // what the driver writes for a start and its stop, saved and read back as the checkers read it
        Path file = dir.resolve("history.jsonl");
        try (JsonLinesRecorder recorder = JsonLinesRecorder.create(file)) {
            recorder.nemesis(io.zkchaos.checkers.history.OpType.INVOKE, "pause-random", "pause-random");
            recorder.nemesis(io.zkchaos.checkers.history.OpType.INFO, "pause-random",
                    FaultRecord.process("pause-random", "pause", List.of("n2")));
            recorder.nemesis(io.zkchaos.checkers.history.OpType.INVOKE, "heal", "pause-random");
            recorder.nemesis(io.zkchaos.checkers.history.OpType.INFO, "heal",
                    FaultRecord.process("resume", "resume", List.of("n2")));
        }
        History h = HistoryFiles.read(file);
        List<FaultWindow> w = FaultWindows.from(h, declared);
        assertThat(w).hasSize(1);
        assertThat(w.get(0).nodes()).containsExactly("n2");
        assertThat(w.get(0).excuses()).containsExactlyInAnyOrder(REJOIN, STALL);
        assertThat(w.get(0).graceNanos()).isEqualTo(Duration.ofSeconds(10).toNanos());
    }
}
