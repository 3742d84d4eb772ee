package io.zkchaos.nemesis.proxy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/**
 * One selector thread of the {@link FaultProxy}: it owns a selector, the channels registered with it (listeners of
 * the links it is home to, both sockets of the connections pinned to it), its timers and a task queue through which
 * other threads hand it work. Everything a channel, connection or timer of this reactor touches is confined to its
 * thread, so that state needs no lock; the only ways in from outside are {@link #execute} and {@link #call}.
 *
 * <p>A reactor never waits for another thread: work for other reactors is posted, never awaited, so no cycle of
 * waits can form between them.
 */
final class Reactor {
    /** Bound on waiting for a reactor's answer to a call from a caller thread. */
    static final long CALL_TIMEOUT_SECONDS = 10;

    private final FaultProxy proxy;
    private final int index;
    private final Selector selector;
    private final Thread thread;
    private final ConcurrentLinkedQueue<Task> tasks = new ConcurrentLinkedQueue<>();
    private final PriorityQueue<Timer> timers = new PriorityQueue<>();
    /** Read buffer shared by the connections of this reactor: a read is handled before the next one starts. */
    private final ByteBuffer scratch;
    /** Keys found ready by a control task's {@link #flushCloses}, dispatched by the loop before it selects. */
    private final List<SelectionKey> readyLater = new ArrayList<>();
    private long timerSeq;
    private boolean closesPending;
    /** True while ready keys or timers are being handled (a link method called from a tap or timer). */
    private boolean dispatching;
    /** Set once the loop has ended; tasks posted afterwards are cancelled by their poster. */
    private volatile boolean dead;

    Reactor(FaultProxy proxy, int index, String threadName, int scratchBytes) {
        this.proxy = proxy;
        this.index = index;
        this.scratch = ByteBuffer.allocateDirect(scratchBytes);
        try {
            this.selector = Selector.open();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a selector", e);
        }
        this.thread = new Thread(this::loop, threadName);
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    int index() {
        return index;
    }

    Selector selector() {
        return selector;
    }

    String threadName() {
        return thread.getName();
    }

    /** Whether the calling thread is this reactor's. */
    boolean inLoop() {
        return Thread.currentThread() == thread;
    }

    /**
     * Runs {@code task} on this reactor's thread, soon; never waits. If the reactor has stopped, the task is
     * cancelled instead (see {@link Task#cancel}).
     */
    void execute(Task task) {
        tasks.add(task);
        if (dead) {
            cancelQueued();
        } else {
            selector.wakeup();
        }
    }

    /** Posts {@code call} and returns its future; runs it at once when already on this thread. */
    <T> CompletableFuture<T> submit(Callable<T> call) {
        CallTask<T> task = new CallTask<>(call);
        if (inLoop()) {
            task.run();
        } else {
            execute(task);
        }
        return task.future;
    }

    /**
     * Runs {@code call} on this reactor's thread and returns its result, waiting for it (bounded); runs it at once
     * when already on this thread. Only for callers that are not reactor threads, or this reactor's own.
     */
    <T> T call(Callable<T> call) {
        return await(submit(call), "the fault proxy thread " + thread.getName());
    }

    /** Waits (bounded) for a future completed by a reactor; rethrows its failure as it was. */
    static <T> T await(CompletableFuture<T> future, String who) {
        try {
            return future.get(CALL_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + who, e);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException(who + " did not answer within " + CALL_TIMEOUT_SECONDS + " s", e);
        }
    }

    /** Runs {@code action} on this thread at {@code atNanos} (System.nanoTime) or soon after. This thread only. */
    void schedule(long atNanos, Runnable action) {
        timers.add(new Timer(atNanos, ++timerSeq, action));
    }

    /**
     * Channels closed while registered are only really closed when the selector next deregisters them; a control
     * call does that before it returns, so that "disabled" means the port refuses at once. While keys are being
     * dispatched (a tap or timer calling a link method) it is left to the loop's next turn. This thread only.
     */
    void flushCloses() {
        if (dispatching) {
            closesPending = true;
            return;
        }
        try {
            selector.selectNow(readyLater::add); // handled by the loop, not inside the control task
        } catch (IOException e) {
            throw new UncheckedIOException("fault proxy selector failed", e);
        }
    }

    /** Wakes the loop so that it sees the proxy is closing. */
    void wakeup() {
        selector.wakeup();
    }

    /** Waits (bounded) for the thread to end; returns whether it did. */
    boolean join(long millis) {
        if (inLoop()) {
            return false;
        }
        try {
            thread.join(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return !thread.isAlive();
    }

    private void loop() {
        try {
            while (proxy.isRunning()) {
                boolean ranTasks = runTasks();
                dispatching = true;
                try {
                    if (!readyLater.isEmpty()) {
                        List<SelectionKey> keys = new ArrayList<>(readyLater);
                        readyLater.clear();
                        keys.forEach(this::dispatch);
                    }
                    // After tasks, do not block: a task may have made a connection ready to write, or be followed
                    // by more work on its way.
                    if (ranTasks || closesPending) {
                        closesPending = false;
                        selector.selectNow(this::dispatch);
                    } else {
                        selector.select(this::dispatch, selectTimeoutMillis());
                    }
                    runDueTimers();
                } finally {
                    dispatching = false;
                }
            }
        } catch (IOException | RuntimeException | Error e) {
            FaultProxy.LOG.error("fault proxy thread {} failed; closing the proxy", thread.getName(), e);
            proxy.failed();
        } finally {
            shutdown();
        }
    }

    private void dispatch(SelectionKey key) {
        if (!key.isValid()) {
            return;
        }
        Object att = key.attachment();
        if (att instanceof Connection c) {
            c.ready(key, scratch);
        } else if (att instanceof ProxyLink link && key.isAcceptable()) {
            link.acceptReady();
        }
    }

    private boolean runTasks() {
        boolean any = false;
        Task t;
        while ((t = tasks.poll()) != null) {
            any = true;
            try {
                t.run();
            } catch (RuntimeException e) {
                FaultProxy.LOG.warn("fault proxy task failed on {}", thread.getName(), e);
            }
        }
        return any;
    }

    private long selectTimeoutMillis() {
        Timer next = timers.peek();
        if (next == null) {
            return 0; // block until an event or a wakeup
        }
        long nanos = next.at - System.nanoTime();
        if (nanos <= 0) {
            return 1; // select(0) would block forever; 1 ms is the smallest wait
        }
        return Math.max(1, TimeUnit.NANOSECONDS.toMillis(nanos + 999_999));
    }

    private void runDueTimers() {
        long now = System.nanoTime();
        while (!timers.isEmpty() && timers.peek().at <= now) {
            Timer t = timers.poll();
            try {
                t.action.run();
            } catch (RuntimeException e) {
                FaultProxy.LOG.warn("fault proxy timer failed", e);
            }
        }
    }

    /**
     * Runs what was queued before the stop (a connection handed over before the listeners closed must be closed
     * here, not leaked), then closes every channel of this selector, connections first so that taps hear of it.
     */
    private void shutdown() {
        try {
            runTasks();
        } catch (RuntimeException e) {
            FaultProxy.LOG.debug("tasks at shutdown failed", e);
        }
        dead = true;
        cancelQueued();
        List<Object> attachments = new ArrayList<>();
        for (SelectionKey k : selector.keys()) {
            attachments.add(k.attachment());
        }
        for (Object att : attachments) {
            try {
                if (att instanceof Connection c) {
                    c.close("the fault proxy closed");
                } else if (att instanceof ProxyLink link) {
                    link.closeListener();
                }
            } catch (RuntimeException e) {
                FaultProxy.LOG.warn("closing {} failed", att, e);
            }
        }
        timers.clear();
        try {
            selector.selectNow(); // deregister the closed channels so their sockets really close
            selector.close();
        } catch (IOException e) {
            FaultProxy.LOG.debug("closing the selector failed", e);
        }
    }

    private void cancelQueued() {
        Task t;
        while ((t = tasks.poll()) != null) {
            try {
                t.cancel();
            } catch (RuntimeException e) {
                FaultProxy.LOG.debug("cancelling a task failed", e);
            }
        }
    }

    /** Work handed to a reactor. */
    interface Task extends Runnable {
        /** The reactor stopped before running it: release what it holds. */
        void cancel();
    }

    private static final class CallTask<T> implements Task {
        final Callable<T> call;
        final CompletableFuture<T> future = new CompletableFuture<>();

        CallTask(Callable<T> call) {
            this.call = call;
        }

        @Override
        public void run() {
            try {
                future.complete(call.call());
            } catch (Throwable e) {
                future.completeExceptionally(e);
            }
        }

        @Override
        public void cancel() {
            future.completeExceptionally(new IllegalStateException("the fault proxy is closed"));
        }
    }

    private record Timer(long at, long seq, Runnable action) implements Comparable<Timer> {
        @Override
        public int compareTo(Timer o) {
            int c = Long.compare(at, o.at);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }
    }
}
