package io.zkchaos.harness.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The reaper against real child JVMs, marked as {@link JvmProcess} marks them, of dead and of living owners. */
class ReaperTest {

    @TempDir
    Path runs;

    private Process child;

    @AfterEach
    void endChild() throws InterruptedException {
        if (child != null && child.isAlive()) {
            child.destroyForcibly();
            child.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** A real child JVM marked as {@link JvmProcess} marks one, naming {@code owner} as the harness that started it. */
    private Process startMarkedChild(String runId, Owner owner) throws Exception {
        return startChild(runId, owner, true);
    }

    /** The same, with or without the role marker: the sweep only ends processes that carry one. */
    private Process startChild(String runId, Owner owner, boolean roleMarker) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, ProcessMarkers.RUN + runId, ProcessMarkers.OWNER + owner));
        if (roleMarker) {
            cmd.add(ProcessMarkers.ROLE + "client");
        }
        cmd.addAll(List.of("-XX:-UsePerfData", "-Xmx16m", "-cp", System.getProperty("java.class.path"),
                Sleeper.class.getName(), "60"));
        Process started = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(runs.resolve(runId + ".out").toFile()).start();
        // start() may return while the child is still the JDK's spawn helper, before its exec shows the markers
        await("the child's markers in /proc/" + started.pid() + "/cmdline").atMost(Duration.ofSeconds(30))
                .until(() -> ProcessMarkers.cmdline(started.pid()).contains(ProcessMarkers.RUN + runId));
        return started;
    }

    /** An owner that existed and is now dead: a real process that has exited. */
    private static Owner deadOwner() throws Exception {
        Process p = new ProcessBuilder("true").start();
        Owner o = Owner.of(p.toHandle()).orElse(new Owner(p.pid(), System.currentTimeMillis()));
        assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
        return o;
    }

    private Path pidFile(String run, long pid, String runId) throws Exception {
        Path dir = Files.createDirectories(runs.resolve(run).resolve("n1"));
        Path f = dir.resolve("server.pid");
        Reaper.writePidFile(f, pid, runId);
        return f;
    }

    @Test
    void endsAMarkedChildWhoseOwnerIsDead() throws Exception {
        Owner dead = deadOwner();
        child = startMarkedChild("run-a", dead);
        Path pidFile = pidFile("a", child.pid(), "run-a");

        List<Reaper.Reaped> reaped = Reaper.reap(runs);

        assertThat(reaped).extracting(Reaper.Reaped::pid).containsExactly(child.pid());
        assertThat(child.waitFor(10, TimeUnit.SECONDS)).as("child ended").isTrue();
        assertThat(pidFile).doesNotExist();
    }

    @Test
    void leavesAChildWhoseOwnerLives() throws Exception {
        child = startMarkedChild("run-b", Owner.current());
        Path pidFile = pidFile("b", child.pid(), "run-b");

        assertThat(Reaper.reap(runs)).isEmpty();
        assertThat(child.isAlive()).isTrue();
        assertThat(pidFile).exists();
    }

    @Test
    void neverEndsAProcessWithoutTheRunMarker() throws Exception {
        // The pid file names this child, but the child carries another run's marker: the pid is "reused".
        child = startMarkedChild("run-other", deadOwner());
        Path pidFile = pidFile("c", child.pid(), "run-c");

        assertThat(Reaper.reap(runs)).isEmpty();
        assertThat(child.isAlive()).isTrue();
        assertThat(pidFile).as("stale pid file removed").doesNotExist();
    }

    @Test
    void removesPidFilesOfProcessesThatAreGone() throws Exception {
        Owner gone = deadOwner();
        Path pidFile = pidFile("d", gone.pid(), "run-d");

        assertThat(Reaper.reap(runs)).isEmpty();
        assertThat(pidFile).doesNotExist();
    }

    @Test
    void theSweepFindsOrphansWithoutPidFiles() throws Exception {
        String run = "sweep-" + System.nanoTime(); // unique: the sweep looks at every process of the machine
        child = startMarkedChild(run, deadOwner());
        Process kept = startMarkedChild(run + "-live", Owner.current());
        try {
            List<Reaper.Reaped> swept = Reaper.sweep(r -> r.startsWith(run));
            assertThat(swept).extracting(Reaper.Reaped::pid).containsExactly(child.pid());
            assertThat(child.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(kept.isAlive()).as("a child of a live owner stays").isTrue();
        } finally {
            kept.destroyForcibly();
            kept.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void endsAFrozenClientProcessOfADeadHarnessFromItsPidFile() throws Exception {
        child = startMarkedChild("run-e", deadOwner());
        Signal.STOP.send(child.pid(), "the test's client"); // frozen: it cannot notice its harness is gone
        Path dir = Files.createDirectories(runs.resolve("e").resolve("clients").resolve("c0"));
        Path pidFile = dir.resolve("client.pid");
        Reaper.writePidFile(pidFile, child.pid(), "run-e");

        assertThat(Reaper.reap(runs)).extracting(Reaper.Reaped::pid).containsExactly(child.pid());
        assertThat(child.waitFor(10, TimeUnit.SECONDS)).as("frozen client ended").isTrue();
        assertThat(pidFile).doesNotExist();
    }

    @Test
    void theSweepEndsOrphanedClientProcessesByTheirRoleMarkerAndNothingUnmarked() throws Exception {
        String run = "sweep-client-" + System.nanoTime();
        child = startMarkedChild(run, deadOwner());
        Process unmarked = startChild(run + "-plain", deadOwner(), false);
        try {
            assertThat(Reaper.sweep(r -> r.startsWith(run))).extracting(Reaper.Reaped::pid)
                    .containsExactly(child.pid());
            assertThat(child.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(unmarked.isAlive()).as("no JvmProcess: not ours to end").isTrue();
        } finally {
            unmarked.destroyForcibly();
            unmarked.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aFileThatIsNoPidFileIsLeftAlone() throws Exception {
        Path notes = Files.writeString(Files.createDirectories(runs.resolve("f")).resolve("notes.pid"), "not a pid");

        assertThat(Reaper.reap(runs)).isEmpty();
        assertThat(notes).as("unreadable: ignored, not deleted").exists();
    }

    @Test
    void aMissingRootIsNothingToReap() {
        assertThat(Reaper.reap(runs.resolve("absent"))).isEmpty();
    }
}
