package io.zkchaos.workloads.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.InMemoryRecorder;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.checkers.history.Operation;
import io.zkchaos.workloads.ClientDeadline;
import java.io.IOException;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Both ends of the report protocol over real pipes, in one JVM: a client's {@link HarnessLink} talking to the
 * harness's {@link ClientChannel}, which records into one recorder. (A client in a JVM of its own is exercised by
 * the harness's ClientProcessesIT.)
 */
class ReportProtocolTest {

    private final InMemoryRecorder recorder = new InMemoryRecorder();
    private final AtomicBoolean harnessGone = new AtomicBoolean();
    private PipedOutputStream clientOut;
    private PipedOutputStream harnessOut;
    private HarnessLink link;
    private ClientChannel channel;

    @BeforeEach
    void connect() throws IOException {
        clientOut = new PipedOutputStream();
        PipedInputStream harnessIn = new PipedInputStream(clientOut, 1 << 16);
        harnessOut = new PipedOutputStream();
        PipedInputStream clientIn = new PipedInputStream(harnessOut, 1 << 16);
        channel = new ClientChannel("c0", 3, harnessIn, harnessOut, recorder);
        link = new HarnessLink(clientIn, clientOut, () -> harnessGone.set(true));
    }

    @AfterEach
    void disconnect() throws IOException {
        clientOut.close();
        harnessOut.close();
    }

    private static Map<String, Object> lead(long token) {
        return Map.of("token", token, "czxid", 7L, "node", "p3");
    }

    @Test
    void anInvokeIsRecordedBeforeItReturnsAndCompletionsFollowInOrder() throws Exception {
        link.hello();
        assertThat(channel.awaitHello(Duration.ofSeconds(10))).isEqualTo(ProcessHandle.current().pid());
        long before = System.nanoTime();
        channel.go(Duration.ofMillis(1234));
        ClientDeadline end = link.awaitGo(Duration.ofSeconds(10));
        assertThat(end.atNanos() - before).as("the end is the span go gave, timed from when it came")
                .isBetween(TimeUnit.MILLISECONDS.toNanos(1234), System.nanoTime() - before
                        + TimeUnit.MILLISECONDS.toNanos(1234));

        assertThat(channel.clockAhead()).as("no invoke yet").isEmpty();
        Op invoke = link.recorder().invoke(3, "acquire", null, null);
        // the same clock on both ends: ahead by nothing but the report's way (a clock fault shows in ClientClockIT)
        assertThat(channel.clockAhead()).hasValueSatisfying(d -> assertThat(d.abs()).isLessThan(Duration.ofMinutes(1)));
        // The harness recorded it before invoke returned: its index and time are the harness recorder's.
        assertThat(recorder.history().ops()).singleElement().satisfies(o -> {
            assertThat(o.index()).isEqualTo(invoke.index());
            assertThat(o.time()).isEqualTo(invoke.time());
            assertThat(o.process()).isEqualTo(3);
        });
        link.recorder().complete(invoke, OpType.OK, lead(11), null);
        Op w = link.recorder().invoke(3, "fenced-write", null, Map.of("token", 11L, "value", 3_000_001L));
        link.recorder().complete(w, OpType.FAIL, null, "stale token 11 < 12");
        await().atMost(Duration.ofSeconds(10)).until(() -> recorder.history().ops().size() == 4);
        assertThat(channel.leader()).contains(new ClientChannel.Lead(3, 11));
        Op release = link.recorder().invoke(3, "release", null, Map.of("token", 11L, "reason", "closed"));
        link.recorder().complete(release, OpType.OK, Map.of("token", 11L, "reason", "closed"), null);
        link.bye();
        await().atMost(Duration.ofSeconds(10)).until(channel::saidBye);

        History h = History.of(recorder.history().ops());
        assertThat(h.operations()).extracting(Operation::f).containsExactly("acquire", "fenced-write", "release");
        assertThat(h.operations().get(0).isOk()).isTrue();
        assertThat(h.operations().get(1).isFail()).isTrue();
        assertThat(h.operations().get(0).output()).isEqualTo(Map.of("token", 11L, "czxid", 7L, "node", "p3"));
        assertThat(h.operations().get(1).error()).isEqualTo("stale token 11 < 12");
        assertThat(channel.leader()).isEmpty();
        assertThat(channel.currentProcess()).isEqualTo(3);
        assertThat(channel.close("client process exited")).as("nothing left open").isZero();
    }

    @Test
    void extendMovesTheClientsEndLaterButNeverEarlier() throws Exception {
        channel.go(Duration.ofMillis(500));
        ClientDeadline end = link.awaitGo(Duration.ofSeconds(10));
        long first = end.atNanos();

        long asked = System.nanoTime();
        channel.extend(Duration.ofMinutes(10));
        await().atMost(Duration.ofSeconds(10)).until(() -> end.atNanos() != first);
        long extended = end.atNanos();
        assertThat(extended - asked).isGreaterThanOrEqualTo(TimeUnit.MINUTES.toNanos(10));

        channel.extend(Duration.ofSeconds(1)); // earlier than the end it has: kept as it is
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> end.atNanos() == extended);
        assertThat(end.passed()).isFalse();
    }

    @Test
    void whatADeadClientLeftOpenIsCompletedInfoAndItsLeadershipEnded() throws Exception {
        // p3 led and is gone; p6 (the same client process's next process) had a write outstanding.
        Op acquire = link.recorder().invoke(3, "acquire", null, null);
        link.recorder().complete(acquire, OpType.OK, lead(11), null);
        Op retired = link.recorder().invoke(6, "acquire", null, null);
        link.recorder().complete(retired, OpType.OK, Map.of("token", 12L, "czxid", 8L, "node", "p6"), null);
        link.recorder().invoke(6, "fenced-write", null, Map.of("token", 12L, "value", 6_000_001L));
        await().atMost(Duration.ofSeconds(10)).until(() -> channel.currentProcess() == 6);
        assertThat(channel.leader()).contains(new ClientChannel.Lead(6, 12));

        clientOut.close(); // the client process died: its report stream ends
        assertThat(channel.awaitEnd(Duration.ofSeconds(10))).isTrue();
        assertThat(channel.close("client process killed by the nemesis")).isEqualTo(3);
        assertThat(channel.close("again")).isZero();

        History h = History.of(recorder.history().ops());
        // p6's write: unknown. p3's leadership: ended when the harness knew the process was gone.
        assertThat(h.operations()).filteredOn(o -> o.process() == 6 && o.f().equals("fenced-write"))
                .singleElement().satisfies(o -> {
                    assertThat(o.isInfo()).isTrue();
                    assertThat(o.error()).isEqualTo("client process killed by the nemesis");
                });
        assertThat(h.operations()).filteredOn(o -> o.process() == 3 && o.f().equals("release"))
                .singleElement().satisfies(o -> {
                    assertThat(o.input()).isEqualTo(Map.of("token", 11L, "reason", "process-died"));
                    assertThat(o.isInfo()).isTrue();
                });
        assertThat(h.operations()).allMatch(o -> o.completeIndex() >= 0);
        assertThat(channel.leader()).isEmpty();
    }

    @Test
    void anInvokeWaitsForTheHarnessAndTheClientHaltsWhenTheHarnessIsGone() throws Exception {
        // A harness that records nothing for a while: the invoke does not return before it is acknowledged.
        PipedOutputStream out = new PipedOutputStream();
        PipedInputStream silentHarness = new PipedInputStream(out, 1 << 16);
        PipedOutputStream toClient = new PipedOutputStream();
        AtomicBoolean gone = new AtomicBoolean();
        HarnessLink waiting = new HarnessLink(new PipedInputStream(toClient), out, () -> gone.set(true));
        CountDownLatch returned = new CountDownLatch(1);
        Thread t = new Thread(() -> {
            waiting.recorder().invoke(1, "acquire", null, null);
            returned.countDown();
        });
        t.setDaemon(true);
        t.start();
        String sent = new java.io.BufferedReader(new java.io.InputStreamReader(silentHarness)).readLine();
        assertThat(sent).contains("\"type\":\"invoke\"").contains("\"seq\":1");
        assertThat(returned.await(300, TimeUnit.MILLISECONDS)).as("returned before the acknowledgement").isFalse();
        toClient.write("{\"type\":\"ack\",\"seq\":1,\"index\":41,\"time\":99}\n".getBytes());
        toClient.flush();
        assertThat(returned.await(10, TimeUnit.SECONDS)).isTrue();
        toClient.close();
        await().atMost(Duration.ofSeconds(10)).untilTrue(gone);
        assertThat(harnessGone).isFalse();
        out.close();
    }

    @Test
    void aClientSpecTravelsAsJson() {
        ClientSpec spec = ClientSpec.of("fenced-writes", io.zkchaos.workloads.WorkloadOptions.defaults()
                        .withHold(Duration.ofSeconds(30), Duration.ofSeconds(30)).withWriteEvery(Duration.ofMillis(400)),
                new io.zkchaos.workloads.Target("127.0.0.1:1,127.0.0.2:2", Map.of("n1", "127.0.0.1:1"),
                        Duration.ofSeconds(2), Duration.ofSeconds(3)), 42L, 5, 2, 7);
        ClientSpec back = ClientSpec.fromJson(spec.toJson());
        assertThat(back).isEqualTo(spec);
        assertThat(back.options().writeEvery()).isEqualTo(Duration.ofMillis(400));
        assertThat(back.target().sessionTimeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(back.startingAt(12).firstProcess()).isEqualTo(12);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> spec.startingAt(8))
                .hasMessage("process 8 is not of slot 2 of 5");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ClientSpec.fromJson("{\"workload\":\"nope\"}"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("nope");
        assertThat(List.of(spec.toJson())).singleElement().asString().doesNotContain("\n");
    }
}
