package io.zkchaos.harness.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.zkchaos.nemesis.NodeState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A real child JVM through the process layer: its markers, files, signals and states. */
class ProcessControlTest {

    @TempDir
    Path dir;

    private ProcessControl<JvmProcess> control;

    @AfterEach
    void killIt() {
        if (control != null) {
            control.kill();
        }
    }

    private ProcessControl<JvmProcess> sleeper(String seconds, String exitCode) {
        control = new ProcessControl<>(JvmProcess.builder("s1", dir).role("sleeper").runId("run-1")
                .jvmOptions(List.of("-Xmx16m")).mainClass(Sleeper.class.getName()).args(List.of(seconds, exitCode))
                .build());
        return control;
    }

    /** The process's state letter in /proc ({@code T} when stopped). */
    private static String procState(long pid) throws Exception {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        return stat.substring(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    }

    @Test
    void startPauseResumeKillAndStartAgain() throws Exception {
        ProcessControl<JvmProcess> c = sleeper("60", "0");
        JvmProcess p = c.process();
        assertThat(c.state()).isEqualTo(NodeState.DOWN);

        c.start();
        long pid = p.pid();
        assertThat(c.state()).isEqualTo(NodeState.RUNNING);
        assertThat(Files.readAllLines(dir.resolve("sleeper.pid"))).containsExactly(Long.toString(pid), "run-1");
        ProcessMarkers m = ProcessMarkers.of(pid);
        assertThat(m.run()).contains("run-1");
        assertThat(m.owner()).contains(Owner.current());
        assertThat(m.role()).contains("sleeper");
        assertThat(ProcessMarkers.cmdline(pid)).contains("-Djava.io.tmpdir=" + dir.resolve("tmp"));

        c.pause();
        assertThat(c.state()).isEqualTo(NodeState.PAUSED);
        await("SIGSTOP taken").atMost(Duration.ofSeconds(10)).until(() -> procState(pid).equals("T"));
        c.pause(); // idempotent
        c.resume();
        assertThat(c.state()).isEqualTo(NodeState.RUNNING);
        await("SIGCONT taken").atMost(Duration.ofSeconds(10)).until(() -> !procState(pid).equals("T"));

        c.pause();
        c.kill(); // a frozen process dies too
        assertThat(c.state()).isEqualTo(NodeState.DOWN);
        assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).isEmpty();
        assertThat(p.exitCode()).as("SIGKILL").isEqualTo(128 + 9);
        assertThat(p.pid()).isEqualTo(-1);
        assertThat(dir.resolve("sleeper.pid")).doesNotExist();
        c.kill(); // idempotent

        c.start();
        assertThat(p.pid()).isPositive().isNotEqualTo(pid);
        assertThat(p.exitCode()).isNull();
        assertThat(Files.readString(p.logFile())).as("one start line per incarnation")
                .containsPattern("(?s)==== zkchaos: starting s1 at .*==== zkchaos: starting s1 at ");
        c.stop();
        assertThat(c.state()).isEqualTo(NodeState.DOWN);
        assertThat(p.exitCode()).as("SIGTERM").isEqualTo(128 + 15);
    }

    @Test
    void aKillOnAnInterruptedThreadIsSeenThroughAndTheProcessIsDown() throws Exception {
        ProcessControl<JvmProcess> c = sleeper("60", "0");
        c.start();
        long pid = c.process().pid();
        // a nemesis thread that its driver interrupted (the run's end) while it stopped a node
        Thread.currentThread().interrupt();
        try {
            c.stop();
        } finally {
            assertThat(Thread.interrupted()).as("the interrupt is kept for the caller").isTrue();
        }
        assertThat(c.state()).as("down at once, so a heal that starts every node that is down sees it")
                .isEqualTo(NodeState.DOWN);
        assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).isEmpty();
    }

    @Test
    void aProcessThatEndsByItselfIsDownWithItsExitCodeAndARetiredOneStaysDown() {
        ProcessControl<JvmProcess> c = sleeper("0", "3");
        c.start();
        await("exited by itself").atMost(Duration.ofSeconds(60)).until(() -> c.state() == NodeState.DOWN);
        assertThat(c.process().exitCode()).isEqualTo(3);
        assertThat(dir.resolve("sleeper.pid")).doesNotExist();
        assertThat(c.process().logTail(5)).contains("==== zkchaos: starting s1");

        c.retire("its test is over");
        assertThatThrownBy(c::start).isInstanceOf(IllegalStateException.class)
                .hasMessage("cannot start s1: its test is over");
        assertThatThrownBy(() -> c.process().signal(Signal.STOP)).hasMessageContaining("s1: it is not running");
        c.process().signal(Signal.KILL); // what it asks for has happened: nothing to do
    }

    @Test
    void theListenerIsToldOfEveryStartAndEndAndWhoseItWas() throws Exception {
        ProcessControl<JvmProcess> c = sleeper("0", "3");
        List<ProcessControl.Change> told = new java.util.concurrent.CopyOnWriteArrayList<>();
        c.listen((control, change) -> {
            assertThat(control).isSameAs(c);
            told.add(change);
        });
        c.start();
        // nobody asks: the process exits with 3, and reading the state notices it
        await("exited by itself").atMost(Duration.ofSeconds(60)).until(() -> c.state() == NodeState.DOWN);
        assertThat(told).containsExactly(new ProcessControl.Change(ProcessControl.Cause.STARTED, null),
                new ProcessControl.Change(ProcessControl.Cause.ENDED, 3));
        assertThat(ExitStatus.signal(3)).as("an exit code, not a signal").isNull();

        told.clear();
        ProcessControl<JvmProcess> s = sleeper("60", "0");
        s.listen((control, change) -> told.add(change));
        s.start();
        s.kill();
        s.start();
        s.pause(); // not an end
        s.stop();
        s.start();
        // a listener that throws is logged: the action stands
        s.listen((control, change) -> {
            told.add(change);
            throw new IllegalStateException("a broken listener");
        });
        s.retire("its test is over");
        assertThat(s.state()).isEqualTo(NodeState.DOWN);
        assertThat(told).extracting(ProcessControl.Change::cause).containsExactly(ProcessControl.Cause.STARTED,
                ProcessControl.Cause.KILLED, ProcessControl.Cause.RESTARTED, ProcessControl.Cause.STOPPED,
                ProcessControl.Cause.RESTARTED, ProcessControl.Cause.RETIRED);
        assertThat(told.get(1).exitCode()).isEqualTo(ExitStatus.KILLED);
        assertThat(ExitStatus.signal(told.get(1).exitCode())).isEqualTo("KILL");
        assertThat(ExitStatus.signal(told.get(3).exitCode())).as("SIGCONT, then SIGTERM").isEqualTo("TERM");
        assertThat(told.get(5).exitCode()).isEqualTo(ExitStatus.KILLED);
    }

    @Test
    void exitCodesNameTheSignalThatEndedTheProcess() {
        assertThat(ExitStatus.signal(139)).isEqualTo("SEGV");
        assertThat(ExitStatus.signal(134)).isEqualTo("ABRT");
        assertThat(ExitStatus.signal(143)).isEqualTo("TERM");
        assertThat(ExitStatus.signal(128)).isNull();
        assertThat(ExitStatus.signal(1)).isNull();
        assertThat(ExitStatus.signal(255)).as("past Linux's signals").isNull();
        assertThat(ExitStatus.signal(null)).isNull();
    }

    @Test
    void theBuilderNamesWhatIsMissing() {
        assertThatThrownBy(() -> JvmProcess.builder("x", dir).runId("r").mainClass("M").build())
                .hasMessageContaining("role must be a lower-case word, got null");
        assertThatThrownBy(() -> JvmProcess.builder("x", dir).role("Bad Role").runId("r").mainClass("M").build())
                .hasMessageContaining("role must be a lower-case word, got Bad Role");
        assertThatThrownBy(() -> JvmProcess.builder("x", dir).role("client").mainClass("M").build())
                .hasMessageContaining("runId must be set");
        assertThatThrownBy(() -> JvmProcess.builder("x", dir).role("client").runId("r").build())
                .hasMessageContaining("mainClass must be set");
    }
}
