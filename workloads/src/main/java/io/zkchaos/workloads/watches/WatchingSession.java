package io.zkchaos.workloads.watches;

import io.zkchaos.checkers.history.HistoryRecorder;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.checkers.watches.WatchesChecker;
import io.zkchaos.workloads.Invocation;
import io.zkchaos.workloads.Outcomes;
import io.zkchaos.workloads.Sessions;
import io.zkchaos.workloads.Target;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * One watching process: a ZooKeeper session that reads znodes (setting watches or not), syncs, adds persistent
 * watches, and records every event its client dispatches (docs/history-conventions.md, "Watches").
 *
 * <p><b>Why asynchronous calls.</b> The client library dispatches watch events and asynchronous results through one
 * event thread, in the order the server sent them; that is where the Programmer's Guide's ordering guarantees hold.
 * A synchronous call returns on the calling thread as soon as its reply is read, possibly before the event thread has
 * delivered an event that came ahead of it. So every call here is asynchronous, and its completion is recorded from
 * its callback, on the event thread, as each event is: the history's order is the order the client dispatched them.
 * The calling thread records the invoke and waits (bounded) for the callback.
 *
 * <p><b>Outcomes.</b> None of these calls changes anything, and the client registers a watch only on a successful
 * reply, so a call that ends in a connection loss certainly had no effect: {@code fail}, and the session carries on
 * (it reconnects, re-registering its watches). An expired session fails its calls and retires the process; a call
 * with no answer within the bound is {@code info} and retires it (a late reply could still set a watch).
 *
 * <p>The session's four watchers — one-time data watches ({@code getData}, {@code exists}), one-time child watches
 * ({@code getChildren}), persistent and persistent-recursive watches — are separate objects, so each event says which
 * kind of watch it fired. Events are recorded under process {@code p + }{@link WatchesChecker#EVENT_STREAM_OFFSET}:
 * one process has one operation open at a time, and an event can arrive while a call is open.
 */
final class WatchingSession implements AutoCloseable {

    private final int process;
    private final HistoryRecorder recorder;
    private final EventTap tap;
    private final Map<String, Object> knew = new ConcurrentHashMap<>(); // path -> what the session last read of it
    private final AtomicBoolean live = new AtomicBoolean(true);
    private final Watcher data = kind("data");
    private final Watcher child = kind("child");
    private final Watcher persistent = kind("persistent");
    private final Watcher recursive = kind("recursive");
    private final ZooKeeper zk;
    private final long bound;

    private WatchingSession(int process, HistoryRecorder recorder, EventTap tap, Target target)
            throws Exception {
        this.process = process;
        this.recorder = recorder;
        this.tap = tap;
        // A call the client neither answers nor fails within this is given up: the client fails its calls at the
        // latest when it declares the connection lost, two thirds of the session timeout after the last reply.
        this.bound = target.sessionTimeout().plus(target.requestTimeout()).toMillis();
        ZooKeeper handle;
        try {
            handle = Sessions.openClient(target.connectString(), target, this::sessionEvent);
        } catch (Exception e) {
            live.set(false); // a handle that connects after all records nothing under this process
            throw e;
        }
        this.zk = handle;
    }

    /** Opens the session of {@code process}; throws if it cannot connect in time (nothing is then recorded). */
    static WatchingSession open(int process, HistoryRecorder recorder, EventTap tap, Target target)
            throws Exception {
        return new WatchingSession(process, recorder, tap, target);
    }

    private int events() {
        return process + WatchesChecker.EVENT_STREAM_OFFSET;
    }

    /** The session's default watcher: its connection states, as {@code session} entries. */
    private void sessionEvent(WatchedEvent e) {
        if (e.getType() != Watcher.Event.EventType.None || !live.get()
                || e.getState() == Watcher.Event.KeeperState.Closed) {
            return;
        }
        Map<String, Object> v = Map.of("state", words(e.getState().name()));
        Op inv = recorder.invoke(events(), "session", null, v);
        recorder.complete(inv, OpType.OK, v, null);
    }

    private Watcher kind(String name) {
        return event -> {
            if (event.getType() == Watcher.Event.EventType.None || !live.get()) {
                return; // connection states go to every watcher: the default one records them
            }
            tap.deliver(event, e -> record(name, e));
        };
    }

    private void record(String watcher, WatchedEvent e) {
        if (!live.get()) {
            return;
        }
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("watcher", watcher);
        v.put("type", words(e.getType().name().replaceFirst("^Node", "")));
        v.put("zxid", e.getZxid());
        v.put("knew", knew.get(e.getPath()));
        Op inv = recorder.invoke(events(), "event", e.getPath(), v);
        recorder.complete(inv, OpType.OK, v, null);
    }

    /** {@code SyncConnected} -> {@code sync-connected}, {@code DataChanged} -> {@code data-changed}. */
    static String words(String camel) {
        return camel.replaceAll("([a-z])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }

    /** What a call did, why it failed, and whether the process must retire (its session is over or in doubt). */
    record Outcome(OpType type, String error, boolean retires) {
        /** The server does not know the call (addWatch before 3.6.0). */
        boolean unimplemented() {
            return error != null && error.startsWith(UNIMPLEMENTED);
        }
    }

    private static final String UNIMPLEMENTED = "unimplemented";

    /** Runs {@code op} ({@code get-data}, {@code exists}, {@code get-children}, {@code sync}) and records it. */
    Outcome call(Invocation op) throws InterruptedException {
        Op invoke = recorder.invoke(process, op.f(), op.key(), op.value());
        Call call = new Call(invoke);
        boolean watch = op.value() instanceof Map<?, ?> m && Boolean.TRUE.equals(m.get("watch"));
        String path = op.key();
        try {
            switch (op.f()) {
                case "get-data" -> zk.getData(path, watch ? data : null,
                        (rc, p, ctx, bytes, stat) -> call.read(rc, p, stat, bytes, -1), null);
                case "exists" -> zk.exists(path, watch ? data : null,
                        (rc, p, ctx, stat) -> call.read(rc, p, stat, null, -1), null);
                case "get-children" -> zk.getChildren(path, watch ? child : null,
                        (rc, p, ctx, children, stat) -> call.read(rc, p, stat, null,
                                children == null ? -1 : children.size()), null);
                case "sync" -> zk.sync(path, (rc, p, ctx) -> call.done(rc, null), null);
                default -> throw new IllegalArgumentException("a watching session has no call " + op.f());
            }
        } catch (RuntimeException e) {
            call.finish(OpType.INFO, null, e.getClass().getSimpleName() + ": " + e.getMessage(), true);
        }
        return call.await();
    }

    /** Adds a persistent ({@code recursive}: persistent-recursive) watch on {@code path} and records it. */
    Outcome addWatch(String path, boolean recursive) throws InterruptedException {
        String mode = recursive ? "persistent-recursive" : "persistent";
        Op invoke = recorder.invoke(process, "add-watch", path, Map.of("mode", mode));
        Call call = new Call(invoke);
        try {
            zk.addWatch(path, recursive ? this.recursive : persistent,
                    recursive ? AddWatchMode.PERSISTENT_RECURSIVE : AddWatchMode.PERSISTENT,
                    (rc, p, ctx) -> call.done(rc, null), null);
        } catch (RuntimeException e) {
            call.finish(OpType.INFO, null, e.getClass().getSimpleName() + ": " + e.getMessage(), true);
        }
        return call.await();
    }

    /** One call in flight: completed once, by its callback or by giving up on it. */
    private final class Call {
        private final Op invoke;
        private final AtomicBoolean completed = new AtomicBoolean();
        private final CompletableFuture<Outcome> outcome = new CompletableFuture<>();

        Call(Op invoke) {
            this.invoke = invoke;
        }

        void read(int rc, String path, Stat stat, byte[] bytes, int children) {
            if (rc == Code.OK.intValue()) {
                Map<String, Object> v = stat(stat);
                if (bytes != null) {
                    v.put("data", new String(bytes, StandardCharsets.UTF_8));
                }
                if (children >= 0) {
                    v.put("children", children);
                }
                knew.put(path, v);
                finish(OpType.OK, v, null, false);
            } else if (rc == Code.NONODE.intValue()) {
                Map<String, Object> v = Map.of("exists", false);
                knew.put(path, v);
                finish(OpType.OK, v, null, false);
            } else {
                done(rc, null);
            }
        }

        void done(int rc, Object value) {
            Code code = Code.get(rc);
            if (code == Code.OK) {
                finish(OpType.OK, value, null, false);
            } else if (code == Code.UNIMPLEMENTED) {
                finish(OpType.FAIL, null, UNIMPLEMENTED + ": this server has no such call", false);
            } else {
                String why = Outcomes.describe(KeeperException.create(code));
                boolean noEffect = code == Code.CONNECTIONLOSS || code == Code.OPERATIONTIMEOUT
                        || code == Code.REQUESTTIMEOUT;
                boolean over = code == Code.SESSIONEXPIRED || code == Code.SESSIONMOVED;
                finish(noEffect || over ? OpType.FAIL : OpType.INFO, null, why, !noEffect);
            }
        }

        void finish(OpType type, Object value, String error, boolean retires) {
            if (completed.compareAndSet(false, true)) {
                recorder.complete(invoke, type, value, error);
                outcome.complete(new Outcome(type, error, retires));
            }
        }

        Outcome await() throws InterruptedException {
            try {
                return outcome.get(bound, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                finish(OpType.INFO, null, "no answer within " + bound + " ms", true);
                return outcome.join();
            } catch (InterruptedException e) {
                finish(OpType.INFO, null, "interrupted", true);
                throw e;
            } catch (ExecutionException e) {
                throw new IllegalStateException("a call's outcome is never exceptional", e);
            }
        }
    }

    private static Map<String, Object> stat(Stat s) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("exists", true);
        v.put("czxid", s.getCzxid());
        v.put("mzxid", s.getMzxid());
        v.put("pzxid", s.getPzxid());
        v.put("version", (long) s.getVersion());
        v.put("cversion", (long) s.getCversion());
        return v;
    }

    /** Closes the session; nothing is recorded for it afterwards. */
    @Override
    public void close() {
        live.set(false);
        Sessions.closeQuietly(zk);
    }
}
