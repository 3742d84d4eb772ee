package io.zkchaos.workloads.process;

import io.zkchaos.checkers.history.HistoryRecorder;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The harness's end of one client process's reports ({@link Messages}): a thread reads them from the process's
 * stdout and records them into the run's one recorder, acknowledging each invoke once it is recorded; it keeps what
 * the process's logical processes left open ({@link ProcessLedger}), which tells who leads and what to end when the
 * process is gone.
 *
 * <p>A report that never arrives is never guessed: when the process is gone (it exited, was killed, or was killed at
 * the end of the run because it never finished), {@link #close} completes each of its outstanding operations
 * {@code info} with the reason, and records the end of each leadership it held ({@code release} with reason
 * {@code process-died}, completed {@code info}). Reports that would arrive after that are dropped (none can: close
 * waits for the end of the stream).
 *
 * <p>Thread-safe.
 */
public final class ClientChannel {

    private static final Logger LOG = LoggerFactory.getLogger(ClientChannel.class);

    /** Who leads in a client process: its logical process and token. */
    public record Lead(int process, long token) {
    }

    private final String name;
    private final HistoryRecorder recorder;
    private final BufferedReader in;
    private final OutputStream out;
    private final ProcessLedger ledger = new ProcessLedger();
    private final CompletableFuture<Long> hello = new CompletableFuture<>();
    private final CountDownLatch ended = new CountDownLatch(1);
    private final CountDownLatch working = new CountDownLatch(1);
    private int currentProcess;
    private boolean bye;
    private boolean closed;
    private Duration clockAhead;

    /**
     * Starts reading.
     *
     * @param name         for logs and errors ({@code c0})
     * @param firstProcess the first logical process the client runs
     * @param reports      the client process's stdout
     * @param answers      the client process's stdin
     * @param recorder     the run's recorder
     */
    public ClientChannel(String name, int firstProcess, InputStream reports, OutputStream answers,
                         HistoryRecorder recorder) {
        this.name = name;
        this.currentProcess = firstProcess;
        this.recorder = recorder;
        this.in = new BufferedReader(new InputStreamReader(reports, StandardCharsets.UTF_8));
        this.out = answers;
        Thread reader = new Thread(this::read, "reports-" + name);
        reader.setDaemon(true);
        reader.start();
    }

    /** Waits for the client's hello; returns its pid. */
    public long awaitHello(Duration bound) throws InterruptedException, TimeoutException {
        try {
            return hello.get(bound.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException(name + " ended before it said hello", e.getCause());
        }
    }

    /**
     * Lets the client run for {@code left} from now. A span, not a moment: the client times it on its monotonic
     * clock, so that a client whose wall clock a fault moved (a replacement started on it too) still stops when the
     * run's clients stop.
     */
    public void go(Duration left) {
        answer(Messages.encode(Messages.GO, "remaining", Math.max(0, left.toMillis())));
    }

    /** Tells the client that the run's clients end now, before the end it has ({@code ClientDeadline.stop}). */
    public void stop() {
        answer(Messages.encode(Messages.STOP));
    }

    /** Moves the client's end to {@code left} from now, if that is later than its end (a span, as {@link #go}). */
    public void extend(Duration left) {
        answer(Messages.encode(Messages.EXTEND, "remaining", Math.max(0, left.toMillis())));
    }

    /**
     * How far the client's wall clock was ahead of the harness's at its last invoke, less the time the report took to
     * arrive (negative: behind); empty before its first invoke. A clock fault on the client process shows here.
     */
    public synchronized Optional<Duration> clockAhead() {
        return Optional.ofNullable(clockAhead);
    }

    /** The logical process the client runs now (its latest in the reports). */
    public synchronized int currentProcess() {
        return currentProcess;
    }

    /** The newest leadership held in this client, if any. */
    public synchronized Optional<Lead> leader() {
        return ledger.leader();
    }

    /** Whether the client said bye: every operation it started is completed. */
    public synchronized boolean saidBye() {
        return bye;
    }

    /** Waits until the client has reported its first invoke (it works); false if it has not within the bound. */
    public boolean awaitWorking(Duration bound) throws InterruptedException {
        return working.await(bound.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Waits until the report stream ended (the process closed its stdout: it exited or died). */
    public boolean awaitEnd(Duration bound) throws InterruptedException {
        return ended.await(bound.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * The client process is gone: ends what it left open in the history ({@code info} with {@code why}) and drops
     * whatever it might still report. Call once its stream ended ({@link #awaitEnd}); idempotent.
     *
     * @return how many history entries it wrote
     */
    public synchronized int close(String why) {
        if (closed) {
            return 0;
        }
        closed = true;
        return ledger.closeAll(recorder, why);
    }

    private void read() {
        try {
            String line;
            while ((line = in.readLine()) != null) {
                if (!line.isBlank()) {
                    handle(line);
                }
            }
        } catch (IOException e) {
            LOG.debug("{}: reports ended: {}", name, e.toString());
        } finally {
            hello.completeExceptionally(new IOException(name + ": the report stream ended"));
            ended.countDown();
        }
    }

    private synchronized void handle(String line) {
        if (closed) {
            LOG.warn("{}: report after the process was closed, dropped: {}", name, Messages.abbreviate(line));
            return;
        }
        Map<?, ?> m;
        try {
            m = Messages.decode(line);
        } catch (IllegalArgumentException e) {
            LOG.warn("{}: {}", name, e.getMessage());
            return;
        }
        switch ((String) m.get("type")) {
            case Messages.HELLO -> hello.complete(Messages.longField(m, "pid"));
            case Messages.INVOKE -> {
                int process = (int) Messages.longField(m, "process");
                Optional<Op> pending = ledger.outstanding(process);
                if (pending.isPresent()) {
                    // Cannot happen with a well-behaved client; recording it would break the history's pairing.
                    LOG.error("{}: process {} invoked {} with {} outstanding; completing that one info", name,
                            process, m.get("f"), pending.get().f());
                    recorder.complete(pending.get(), OpType.INFO, null, "protocol error: a second invoke came");
                    ledger.completed(pending.get(), OpType.INFO, null);
                }
                currentProcess = Math.max(currentProcess, process);
                if (m.get("wall") instanceof Number wall) {
                    clockAhead = Duration.ofMillis(wall.longValue() - System.currentTimeMillis());
                }
                Op op = recorder.invoke(process, (String) m.get("f"), (String) m.get("key"), m.get("value"));
                ledger.invoked(op);
                working.countDown();
                answer(Messages.encode(Messages.ACK, "seq", Messages.longField(m, "seq"), "index", op.index(),
                        "time", op.time()));
            }
            case Messages.COMPLETE -> {
                int process = (int) Messages.longField(m, "process");
                OpType type = OpType.fromWireName((String) m.get("result"));
                Optional<Op> invoke = ledger.outstanding(process);
                if (invoke.isEmpty() || type == null || type == OpType.INVOKE
                        || !invoke.get().f().equals(m.get("f"))) {
                    LOG.error("{}: completion without its invoke, dropped: {}", name, Messages.abbreviate(line));
                    return;
                }
                recorder.complete(invoke.get(), type, m.get("value"), (String) m.get("error"));
                ledger.completed(invoke.get(), type, m.get("value"));
            }
            case Messages.BYE -> bye = true;
            default -> LOG.warn("{}: unknown report, dropped: {}", name, Messages.abbreviate(line));
        }
    }

    private void answer(String line) {
        try {
            synchronized (out) {
                out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
        } catch (IOException e) {
            // The process is gone; the end of its report stream says so.
            LOG.debug("{}: cannot answer: {}", name, e.toString());
        }
    }
}
