package io.zkchaos.workloads.process;

import io.zkchaos.checkers.history.HistoryRecorder;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.workloads.ClientDeadline;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A client process's end of the report protocol ({@link Messages}): it reports to the harness over its stdout and
 * reads the harness's answers from its stdin. Its {@link #recorder()} is the history as the workload's code sees it.
 *
 * <p><b>Semantics.</b> An invoke is recorded by the harness <em>before</em> the operation starts: {@code invoke}
 * returns only once the harness acknowledged it (so the history's invoke precedes whatever the operation does, as
 * with a recorder in the same JVM). A completion is sent and not waited for: the harness records it when it
 * arrives, a little after the operation ended, which only widens the operation's interval. The indices and times of
 * the history are the harness's.
 *
 * <p>When the harness is gone (its end of stdin closes) there is nobody to report to: the process halts at once
 * ({@code onHarnessGone}). Thread-safe.
 */
public final class HarnessLink {

    /** How long an invoke waits for the harness's acknowledgement before the process gives up on the harness. */
    static final Duration ACK_BOUND = Duration.ofMinutes(2);

    private final BufferedReader in;
    private final OutputStream out;
    private final Runnable onHarnessGone;
    private final CompletableFuture<ClientDeadline> go = new CompletableFuture<>();
    private final Map<Long, CompletableFuture<long[]>> pending = new ConcurrentHashMap<>();
    private final AtomicLong seq = new AtomicLong();
    private final Recorder recorder = new Recorder();

    /**
     * @param fromHarness   the process's stdin
     * @param toHarness     the process's real stdout (nothing else may write to it)
     * @param onHarnessGone what to do when the harness closes the link (a client process halts)
     */
    public HarnessLink(InputStream fromHarness, OutputStream toHarness, Runnable onHarnessGone) {
        this.in = new BufferedReader(new InputStreamReader(fromHarness, StandardCharsets.UTF_8));
        this.out = toHarness;
        this.onHarnessGone = onHarnessGone;
        Thread reader = new Thread(this::read, "harness-link");
        reader.setDaemon(true);
        reader.start();
    }

    /** Says hello with this process's pid. */
    public void hello() {
        send(Messages.encode(Messages.HELLO, "pid", ProcessHandle.current().pid()));
    }

    /**
     * Waits for the harness's go; returns when the run's clients stop, an end the harness's {@code extend} messages
     * move later.
     */
    public ClientDeadline awaitGo(Duration bound) throws InterruptedException, TimeoutException {
        try {
            return go.get(bound.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("the harness link failed before go", e.getCause());
        }
    }

    /** Says every operation is completed and the process is about to exit. */
    public void bye() {
        send(Messages.encode(Messages.BYE));
    }

    /** The history as the workload sees it. */
    public HistoryRecorder recorder() {
        return recorder;
    }

    private void read() {
        try {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.isBlank()) {
                    continue;
                }
                Map<?, ?> m = Messages.decode(line);
                switch ((String) m.get("type")) {
                    case Messages.GO -> go.complete(
                            ClientDeadline.after(Duration.ofMillis(Messages.longField(m, "remaining"))));
                    case Messages.STOP -> {
                        ClientDeadline end = go.getNow(null);
                        if (end != null) { // the harness stops only clients it gave go
                            end.stop();
                        }
                    }
                    case Messages.EXTEND -> {
                        ClientDeadline end = go.getNow(null);
                        if (end != null) { // the harness extends only after go
                            end.extendBy(Duration.ofMillis(Messages.longField(m, "remaining")));
                        }
                    }
                    case Messages.ACK -> {
                        CompletableFuture<long[]> f = pending.remove(Messages.longField(m, "seq"));
                        if (f != null) {
                            f.complete(new long[] {Messages.longField(m, "index"), Messages.longField(m, "time")});
                        }
                    }
                    default -> System.err.println("harness link: ignoring " + Messages.abbreviate(line));
                }
            }
        } catch (IOException | RuntimeException e) {
            System.err.println("harness link: " + e);
        }
        onHarnessGone.run();
    }

    private synchronized void send(String line) {
        try {
            out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot report to the harness", e);
        }
    }

    /** Reports instead of writing: invokes wait for the harness's acknowledgement. */
    private final class Recorder implements HistoryRecorder {

        @Override
        public Op invoke(int process, String f, String key, Object value) {
            long n = seq.incrementAndGet();
            CompletableFuture<long[]> ack = new CompletableFuture<>();
            pending.put(n, ack);
            // its wall clock too, for the harness to see what a clock fault did to it (the history's times are the
            // harness's own)
            send(Messages.encode(Messages.INVOKE, "seq", n, "process", process, "f", f, "key", key, "value", value,
                    "wall", System.currentTimeMillis()));
            long[] at;
            boolean interrupted = false;
            while (true) {
                try {
                    at = ack.get(ACK_BOUND.toMillis(), TimeUnit.MILLISECONDS);
                    break;
                } catch (InterruptedException e) {
                    interrupted = true; // the invoke must be recorded before the operation may start
                } catch (ExecutionException | TimeoutException e) {
                    throw new IllegalStateException("the harness did not acknowledge invoke " + f + " of process "
                            + process + " within " + ACK_BOUND, e);
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            return new Op(at[0], process, OpType.INVOKE, f, key, value, null, at[1]);
        }

        @Override
        public Op complete(Op invoke, OpType type, Object value, String error) {
            if (type == OpType.INVOKE) {
                throw new IllegalArgumentException("a completion must be ok, fail or info");
            }
            send(Messages.encode(Messages.COMPLETE, "process", invoke.process(), "f", invoke.f(), "result",
                    type.wireName(), "value", value, "error", error));
            return new Op(-1, invoke.process(), type, invoke.f(), invoke.key(), value, error, -1);
        }

        @Override
        public Op nemesis(OpType type, String f, Object value) {
            throw new UnsupportedOperationException("a client process does not record nemesis actions");
        }

        @Override
        public void close() {
            // the link ends with the process
        }
    }
}
