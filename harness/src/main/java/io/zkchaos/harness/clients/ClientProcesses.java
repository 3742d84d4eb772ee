package io.zkchaos.harness.clients;

import io.zkchaos.checkers.history.HistoryRecorder;
import io.zkchaos.harness.process.JvmProcess;
import io.zkchaos.harness.process.MovedClocks;
import io.zkchaos.harness.process.ProcessClock;
import io.zkchaos.harness.process.ProcessControl;
import io.zkchaos.harness.process.ShutdownRegistry;
import io.zkchaos.nemesis.ClientControl;
import io.zkchaos.nemesis.NodeState;
import io.zkchaos.workloads.ClientDeadline;
import io.zkchaos.workloads.Target;
import io.zkchaos.workloads.WorkloadOptions;
import io.zkchaos.workloads.Workloads;
import io.zkchaos.workloads.process.ClientChannel;
import io.zkchaos.workloads.process.ClientMain;
import io.zkchaos.workloads.process.ClientSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The clients of a run, each in a JVM of its own: one {@link JvmProcess} per client slot running
 * {@link ClientMain}, each with its own ZooKeeper sessions, reporting every operation into the run's one recorder
 * through a {@link ClientChannel}. It is the {@link ClientControl} the nemesis acts on.
 *
 * <pre>
 * &lt;run&gt;/clients/c0/client.log   the process's stderr (every incarnation), logback.xml, tmp/, client.pid
 * &lt;run&gt;/clients/c0/clock        its wall clock's offset, when a client clock fault may move it ({@link ProcessClock})
 * </pre>
 *
 * <p><b>What happens to a client process's operations.</b> A process that dies (killed by the nemesis, crashed) has
 * its outstanding operations completed {@code info} and its leadership ended ({@code release}, reason
 * {@code process-died}, {@code info}) once its report stream has ended; while the run lasts a new process with a
 * later process number takes its slot at once (a retired process is replaced, as in Jepsen). A process that has not
 * finished {@link #run grace} after the run's clients should have stopped (frozen and never resumed, or hung) is
 * killed and treated the same way, its error saying so. Nothing is ever guessed: a report that did not arrive is an
 * {@code info}. {@link #start} waits until every client works before the nemesis may act on them: each warms up (a
 * session opened and closed) before it says hello, and a cold JVM on a loaded machine is slow to record anything.
 *
 * <p>Every process dies with the harness: {@link #close()}, the {@link ShutdownRegistry} for clients still open, each
 * process halting when its stdin (the harness's pipe) closes, and the {@link io.zkchaos.harness.process.Reaper} (by
 * their markers and pid files) for a process that cannot notice, a frozen one, after a SIGKILLed harness.
 */
public final class ClientProcesses implements ClientControl, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ClientProcesses.class);
    /** The run directory's subdirectory that holds the client processes. */
    public static final String DIRECTORY = "clients";
    /** How long a client process may take to start and say hello. */
    static final Duration HELLO_BOUND = Duration.ofSeconds(90);
    /** How long the run waits, after its start, for every client process to record its first operation. */
    public static final Duration WORKING_BOUND = Duration.ofSeconds(30);
    /** Whose clocks {@link ProcessClock} moves here, for its errors. */
    private static final String CLOCKS = "the client processes'";
    /** JVM options of a client process: small, quick to start. */
    static final List<String> JVM_OPTIONS = List.of("-Xmx128m", "-Xms16m", "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1");

    /**
     * How long a client process may need after the run's end to finish: its last operation (a request timeout),
     * resigning (closing a recipe waits up to two request timeouts) and closing its session (it waits up to two
     * session timeouts to be connected, so that the close really closes it), and a margin.
     */
    public static Duration finishGrace(Target target) {
        return target.sessionTimeout().multipliedBy(2).plus(target.requestTimeout().multipliedBy(3))
                .plus(Duration.ofSeconds(10));
    }

    private final Path dir;
    private final String runId;
    private final HistoryRecorder recorder;
    private final int concurrency;
    private final List<Incarnation> current = new ArrayList<>();
    private final boolean[] done;
    /** Whether each process starts with libfaketime preloaded, its clock movable ({@link #setClockOffsets}). */
    private final boolean clocks;
    /** Each slot whose wall clock is moved now, with its offset: the slot's machine, whichever process runs there. */
    private final MovedClocks<Integer> slotOffsets = new MovedClocks<>();
    /** When the clients stop; null until {@link #start}. */
    private ClientDeadline end;
    private boolean closing;

    /** One JVM of one slot: the process, its report channel, and why it ended when the harness ended it. */
    private static final class Incarnation {
        final int slot;
        final ClientSpec spec;
        final ProcessControl<JvmProcess> jvm;
        final Process process;
        final ClientChannel channel;
        final CountDownLatch closed = new CountDownLatch(1);
        volatile String endReason;
        volatile boolean started;
        boolean wentGo;

        Incarnation(int slot, ClientSpec spec, ProcessControl<JvmProcess> jvm, Process process,
                    ClientChannel channel) {
            this.slot = slot;
            this.spec = spec;
            this.jvm = jvm;
            this.process = process;
            this.channel = channel;
        }

        String name() {
            return "p" + channel.currentProcess();
        }
    }

    private ClientProcesses(Path dir, HistoryRecorder recorder, int concurrency, boolean clocks) {
        this.dir = dir;
        this.clocks = clocks;
        this.runId = dir.toAbsolutePath().getParent().getFileName() + "-clients-"
                + UUID.randomUUID().toString().substring(0, 8);
        this.recorder = recorder;
        this.concurrency = concurrency;
        this.done = new boolean[concurrency];
    }

    /**
     * Starts one client process per slot ({@code concurrency} of them) running {@code workload}, and waits until
     * each has said hello. They wait for {@link #run} to begin.
     *
     * @param dir      where the client processes live ({@code <run>/clients})
     * @throws IllegalArgumentException if the workload's clients cannot run as processes
     * @throws IllegalStateException    naming the client that did not start, with the tail of its log
     */
    public static ClientProcesses launch(Path dir, String workload, WorkloadOptions options, Target target,
                                         long seed, int concurrency, HistoryRecorder recorder)
            throws InterruptedException {
        return launch(dir, workload, options, target, seed, concurrency, recorder, false);
    }

    /**
     * As {@link #launch(Path, String, WorkloadOptions, Target, long, int, HistoryRecorder)}, with each process's
     * wall clock movable when {@code clocks} (libfaketime preloaded: a client clock fault needs it).
     *
     * @throws IllegalStateException also when {@code clocks} and libfaketime is not installed, saying how to
     */
    public static ClientProcesses launch(Path dir, String workload, WorkloadOptions options, Target target,
                                         long seed, int concurrency, HistoryRecorder recorder, boolean clocks)
            throws InterruptedException {
        Workloads.require(workload).createSlotted(options); // fails early, naming the workload
        if (clocks) {
            ProcessClock.library().orElseThrow(() -> new IllegalStateException(ProcessClock.missing(CLOCKS)));
        }
        ClientProcesses clients = new ClientProcesses(dir, recorder, concurrency, clocks);
        ShutdownRegistry.register(clients);
        try {
            synchronized (clients) {
                for (int slot = 0; slot < concurrency; slot++) {
                    clients.current.add(clients.start(ClientSpec.of(workload, options, target, seed, concurrency,
                            slot, slot)));
                }
            }
            for (Incarnation i : List.copyOf(clients.current)) {
                clients.awaitHello(i);
            }
            return clients;
        } catch (RuntimeException | InterruptedException e) {
            clients.close();
            throw e;
        }
    }

    private Incarnation start(ClientSpec spec) {
        int slot = spec.slot();
        Path d = dir.resolve("c" + slot);
        try {
            Files.createDirectories(d);
            Files.writeString(d.resolve("logback.xml"), LOGBACK, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare client directory " + d, e);
        }
        List<String> options = new ArrayList<>(JVM_OPTIONS);
        options.add("-Dlogback.configurationFile=" + d.resolve("logback.xml"));
        JvmProcess.Builder b = JvmProcess.builder("c" + slot, d).role("client").runId(runId)
                .mainClass(ClientMain.class.getName()).jvmOptions(options).args(List.of(spec.toJson())).piped();
        if (clocks) {
            b.environment(ProcessClock.in(d, CLOCKS).environment()); // a movable wall clock (client clock faults)
        }
        ProcessControl<JvmProcess> jvm = new ProcessControl<>(b.build());
        jvm.start();
        Process p = jvm.process().process();
        ClientChannel channel = new ClientChannel("c" + slot + "/p" + spec.firstProcess(), spec.firstProcess(),
                p.getInputStream(), p.getOutputStream(), recorder);
        Incarnation inc = new Incarnation(slot, spec, jvm, p, channel);
        Thread monitor = new Thread(() -> watch(inc), "client-c" + slot + "-p" + spec.firstProcess());
        monitor.setDaemon(true);
        monitor.start();
        LOG.info("client process c{} (pid {}) starts at process p{}", slot, p.pid(), spec.firstProcess());
        return inc;
    }

    private void awaitHello(Incarnation i) throws InterruptedException {
        try {
            i.channel.awaitHello(HELLO_BOUND);
            i.started = true;
        } catch (TimeoutException | IllegalStateException e) {
            i.endReason = "client process did not start";
            i.jvm.kill();
            Integer exit = i.jvm.process().exitCode();
            throw new IllegalStateException("client process c" + i.slot + " (p" + i.spec.firstProcess()
                    + ") did not say hello within " + HELLO_BOUND.toSeconds() + " s"
                    + (exit == null ? "" : " (it exited with code " + exit + ")") + "; last lines of "
                    + i.jvm.process().logFile() + ":\n" + i.jvm.process().logTail(30), e);
        }
        synchronized (this) {
            go(i);
        }
    }

    /** Sends go once the run's deadline is known; replacements get it as soon as they start. */
    private void go(Incarnation i) {
        if (end != null && !i.wentGo) {
            i.wentGo = true;
            i.channel.go(Duration.ofNanos(end.remainingNanos()));
        }
    }

    /** {@link #start} then {@link #awaitEnd}. */
    public void run(Duration duration, Duration grace) throws InterruptedException {
        start(duration, Duration.ZERO);
        awaitEnd(grace);
    }

    /**
     * Lets every client process run for {@code duration} from now, and waits (at most {@code workingBound}) until
     * each has recorded its first operation, so that what acts on them next (the nemesis) finds them working.
     *
     * @return how long it waited
     */
    public Duration start(Duration duration, Duration workingBound) throws InterruptedException {
        long t0 = System.nanoTime();
        List<Incarnation> started;
        synchronized (this) {
            if (end != null) {
                throw new IllegalStateException("the client processes were started already");
            }
            end = ClientDeadline.after(duration);
            current.forEach(this::go);
            started = List.copyOf(current);
        }
        long bound = t0 + workingBound.toNanos();
        for (Incarnation i : started) {
            if (!i.channel.awaitWorking(Duration.ofNanos(Math.max(0, bound - System.nanoTime())))
                    && !workingBound.isZero()) {
                LOG.warn("client process c{} has recorded nothing {} ms after the start", i.slot,
                        workingBound.toMillis());
            }
        }
        return Duration.ofNanos(System.nanoTime() - t0);
    }

    /**
     * Ends the run's clients now, before their end: each client process finishes the operation it has in flight (its
     * outcome recorded as always), says bye and exits, as at that end; a replacement started after this gets no time.
     * For a test that has seen everything it waits for ({@code ClientDeadline.stop}); a run's clients otherwise run
     * their full time. Before {@link #start} it does nothing (no client runs yet).
     */
    public synchronized void stop() {
        if (end == null) {
            return;
        }
        end.stop();
        for (Incarnation i : current) {
            if (i.wentGo) {
                i.channel.stop();
            }
        }
        notifyAll();
    }

    /**
     * Moves the client processes' end to {@code left} from now, when that is later than their end: each running
     * process is told, a replacement starts with it. An earlier end is kept.
     */
    public synchronized void extend(Duration left) {
        if (end == null) {
            throw new IllegalStateException("the client processes were not started");
        }
        long before = end.atNanos();
        end.extendBy(left);
        if (end.atNanos() == before) {
            return; // the end was later already
        }
        for (Incarnation i : current) {
            if (i.wentGo) {
                i.channel.extend(left);
            }
        }
        notifyAll();
    }

    /**
     * Waits until every client process has finished (said bye and exited) after their end ({@link #start}, moved by
     * {@link #extend}). One that has not finished {@code grace} after that end is killed, its open operations
     * recorded {@code info}.
     */
    public void awaitEnd(Duration grace) throws InterruptedException {
        synchronized (this) {
            if (end == null) {
                throw new IllegalStateException("the client processes were not started");
            }
            long left;
            while (!allDone() && (left = end.atNanos() + grace.toNanos() - System.nanoTime()) > 0) {
                wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            }
        }
        for (Incarnation i : unfinished()) {
            LOG.warn("client process c{} ({}) did not finish {} ms after the run's end: killing it", i.slot, i.name(),
                    grace.toMillis());
            i.endReason = "client process did not finish within " + grace.toSeconds() + " s of the end of the run"
                    + (i.jvm.state() == NodeState.PAUSED ? " (still frozen)" : "") + ": killed";
            i.jvm.kill();
            i.closed.await(30, TimeUnit.SECONDS);
        }
    }

    private synchronized List<Incarnation> unfinished() {
        List<Incarnation> out = new ArrayList<>();
        for (int s = 0; s < concurrency; s++) {
            if (!done[s]) {
                out.add(current.get(s));
            }
        }
        return out;
    }

    private boolean allDone() {
        for (boolean d : done) {
            if (!d) {
                return false;
            }
        }
        return true;
    }

    /** Waits for an incarnation to end; closes its channel (info for what it left open); replaces it if the run goes on. */
    private void watch(Incarnation inc) {
        Incarnation replacement = null;
        try {
            int exit = inc.process.waitFor();
            if (!inc.channel.awaitEnd(Duration.ofSeconds(10))) {
                LOG.warn("client process c{}: its report stream did not end 10 s after it exited", inc.slot);
            }
            String why = inc.endReason != null ? inc.endReason
                    : inc.channel.saidBye() ? "client process exited"
                    : "client process exited with code " + exit + " before it finished";
            int written = inc.channel.close(why);
            inc.jvm.state(); // notices the exit: the pid file goes
            if (written > 0) {
                LOG.info("client process c{} ({}) ended ({}): {} history entries recorded for it", inc.slot,
                        inc.name(), why, written);
            }
            synchronized (this) {
                if (!closing && current.get(inc.slot) == inc && inc.started && !inc.channel.saidBye()
                        && (end == null || !end.passed())) {
                    int next = Math.max(inc.channel.currentProcess(), inc.spec.firstProcess()) + concurrency;
                    replacement = start(inc.spec.startingAt(next));
                    current.set(inc.slot, replacement);
                } else if (current.get(inc.slot) == inc) {
                    done[inc.slot] = true;
                }
                notifyAll();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.error("client process c{}: {}", inc.slot, e.toString());
            synchronized (this) {
                if (current.get(inc.slot) == inc) {
                    done[inc.slot] = true;
                }
                notifyAll();
            }
        } finally {
            inc.closed.countDown();
        }
        if (replacement != null) {
            try {
                awaitHello(replacement);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (IllegalStateException e) {
                LOG.error("{}", e.getMessage()); // its own watch marks the slot done
            }
        }
    }

    // ---- ClientControl ----

    @Override
    public synchronized List<String> clients() {
        return current.stream().filter(i -> i.jvm.state() != NodeState.DOWN && i.started).map(Incarnation::name)
                .toList();
    }

    @Override
    public NodeState state(String client) {
        return find(client).jvm.state();
    }

    @Override
    public synchronized Optional<String> leader() {
        return current.stream().filter(i -> i.jvm.state() != NodeState.DOWN)
                .flatMap(i -> i.channel.leader().stream())
                .max(Comparator.comparingLong(ClientChannel.Lead::token))
                .map(l -> "p" + l.process());
    }

    @Override
    public void pause(String client) {
        find(client).jvm.pause();
    }

    @Override
    public void resume(String client) {
        find(client).jvm.resume();
    }

    @Override
    public void kill(String client) {
        Incarnation i = find(client);
        i.endReason = "client process killed by the nemesis";
        i.jvm.kill();
        try {
            if (!i.closed.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("client " + client + " was killed but its operations were not "
                        + "recorded within 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for killed client " + client, e);
        }
    }

    /**
     * Moves each client's wall clock: the control file of its slot, which the process reads (and a process that
     * replaces it in the slot starts on); every file written first, then one wait until the processes have read them.
     *
     * @throws UnsupportedOperationException when the processes were started on the machine's clock
     * @throws IllegalArgumentException      naming a client that no slot runs now
     */
    @Override
    public void setClockOffsets(Map<String, Duration> offsets) {
        if (!clocks) {
            throw new UnsupportedOperationException("cannot move a client process's clock: the client processes "
                    + "were started on the machine's clock (a client clock nemesis starts them so that it can)");
        }
        Map<Integer, Duration> bySlot = new LinkedHashMap<>();
        Map<ProcessClock, Duration> files = new LinkedHashMap<>();
        offsets.forEach((client, offset) -> {
            int slot = slotOf(client);
            bySlot.put(slot, offset);
            files.put(ProcessClock.in(dir.resolve("c" + slot), CLOCKS), offset);
        });
        ProcessClock.setAll(files, ProcessClock::awaitApplied);
        slotOffsets.record(bySlot);
    }

    @Override
    public synchronized Map<String, Duration> clockOffsets() {
        Map<String, Duration> out = new LinkedHashMap<>();
        slotOffsets.offsets().forEach((slot, offset) -> out.put(current.get(slot).name(), offset));
        return out;
    }

    /**
     * How far each live client process's wall clock was ahead of the harness's at its last invoke (what it reported
     * of itself), by client; a client that has invoked nothing yet is left out. For tests and diagnostics.
     */
    public synchronized Map<String, Duration> clocksAhead() {
        Map<String, Duration> out = new LinkedHashMap<>();
        current.stream().filter(i -> i.jvm.state() != NodeState.DOWN)
                .forEach(i -> i.channel.clockAhead().ifPresent(d -> out.put(i.name(), d)));
        return out;
    }

    /** The slot a client runs in, whether its process runs now or not (a finished client's clock is reset too). */
    private synchronized int slotOf(String client) {
        return current.stream().filter(i -> i.name().equals(client)).mapToInt(i -> i.slot).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no client process runs " + client + " now; clients: "
                        + clients()));
    }

    private synchronized Incarnation find(String client) {
        for (Incarnation i : current) {
            if (i.name().equals(client) && i.jvm.state() != NodeState.DOWN) {
                return i;
            }
        }
        throw new IllegalArgumentException("no client process runs " + client + " now; clients: " + clients());
    }

    /** The pids of the live client processes, in slot order (for tests and diagnostics). */
    public synchronized List<Long> pids() {
        return current.stream().map(i -> i.jvm.process().pid()).filter(p -> p > 0).toList();
    }

    /** Kills every client process still running (its open operations are recorded info). Idempotent. */
    @Override
    public void close() {
        List<Incarnation> live;
        synchronized (this) {
            closing = true;
            live = List.copyOf(current);
            notifyAll();
        }
        for (Incarnation i : live) {
            if (i.jvm.state() == NodeState.DOWN) {
                continue;
            }
            if (i.endReason == null) {
                i.endReason = "the run ended before the client process finished: killed";
            }
            try {
                i.jvm.kill();
                i.closed.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } catch (RuntimeException e) {
                LOG.warn("killing client process c{}: {}", i.slot, e.toString());
            }
        }
        ShutdownRegistry.unregister(this);
    }

    private static final String LOGBACK = """
            <configuration>
              <appender name="ERR" class="ch.qos.logback.core.ConsoleAppender">
                <target>System.err</target>
                <encoder><pattern>%d{HH:mm:ss.SSS} %-5level [%thread] %logger{0} - %msg%n</pattern></encoder>
              </appender>
              <logger name="org.apache.zookeeper" level="WARN"/>
              <logger name="org.apache.curator" level="WARN"/>
              <root level="INFO"><appender-ref ref="ERR"/></root>
            </configuration>
            """;
}
