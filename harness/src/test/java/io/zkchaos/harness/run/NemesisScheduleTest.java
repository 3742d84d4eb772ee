package io.zkchaos.harness.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.nemesis.FaultRecord;
import io.zkchaos.nemesis.NemesisDriver;
import io.zkchaos.nemesis.frame.TriggerRecord;
import io.zkchaos.results.RunDirectory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NemesisScheduleTest {

    @TempDir
    Path tmp;

    @Test
    void nemesisJsonIsReadBackAsTheScheduleThatWroteIt() throws Exception {
        TreeMap<String, java.util.SortedSet<String>> grudge = new TreeMap<>();
        grudge.put("n1", new TreeSet<>(List.of("n2", "n3")));
        grudge.put("n2", new TreeSet<>(List.of("n1")));
        grudge.put("n3", new TreeSet<>(List.of("n1")));
        FaultRecord isolate = new FaultRecord("isolate-leader", "isolate n1 from {n2, n3}", List.of("n1", "n2", "n3"),
                List.of(List.of("n1"), List.of("n2", "n3")), grudge);
        TriggerRecord fired = new TriggerRecord("stall-during-snapshot", "the 1st SNAP", true, "n2-n1-quorum", 4,
                "downstream", "n1", "n2", "SNAP", "100000003", "sync", 1, -1, 120, "paused n2", List.of("n2"),
                Map.of("SNAP", 1L, "DIFF", 0L));
        FaultRecord stall = new FaultRecord("stall-during-snapshot", "pause n2 at a SNAP", List.of("n2"), List.of(),
                new TreeMap<>(), List.of(fired));
        Runner.NemesisSchedule written = new Runner.NemesisSchedule("mixed", 42, List.of(
                new NemesisDriver.Action(1000, "start", "isolate-leader", isolate, null, 990),
                new NemesisDriver.Action(1500, "start", "kill-leader", null, "no leader to aim at", 1500),
                new NemesisDriver.Action(2000, "trigger", "stall-during-snapshot", stall, null, 1980),
                new NemesisDriver.Action(9000, "final-heal", "all", FaultRecord.process("heal", "heal", List.of()),
                        null, 8990)), Map.of("SNAP", 1L, "DIFF", 4L));
        RunDirectory dir = new RunDirectory(tmp);
        dir.writeNemesis(written);

        assertThat(Runner.NemesisSchedule.read(dir)).isEqualTo(written);
        assertThat(Files.readString(dir.nemesisFile())).contains("\"fault\" : \"isolate-leader\"")
                .contains("\"quorumPackets\"");
    }
}
