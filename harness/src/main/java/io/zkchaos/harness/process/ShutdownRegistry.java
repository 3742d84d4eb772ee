package io.zkchaos.harness.process;

import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the harness has open that must not outlive it (clusters, client processes), and the one JVM shutdown hook that
 * closes it: a harness ended by SIGTERM or Ctrl-C takes its processes, containers and proxies with it. (A harness
 * ended by SIGKILL runs no hook; the {@link Reaper} ends what it left at the next start.)
 *
 * <p>An owner {@link #register}s itself once open and {@link #unregister}s itself in its {@code close()}. The hook
 * closes what is still registered, newest first (a run's client processes before the cluster they use), each in
 * turn; a failure is logged and the next is closed all the same.
 */
public final class ShutdownRegistry {

    private static final Logger LOG = LoggerFactory.getLogger(ShutdownRegistry.class);
    /** The JVM's one registry; its hook is installed with the first registration. */
    private static final ShutdownRegistry JVM = new ShutdownRegistry();
    private static final AtomicBoolean HOOK = new AtomicBoolean();

    private final Deque<AutoCloseable> open = new ConcurrentLinkedDeque<>();

    /** A registry of its own, without a hook (for tests); the harness uses the static methods. */
    ShutdownRegistry() {
    }

    /** Closes {@code resource} when the JVM shuts down, unless it is {@link #unregister}ed first. */
    public static void register(AutoCloseable resource) {
        JVM.add(resource);
        if (HOOK.compareAndSet(false, true)) {
            Runtime.getRuntime().addShutdownHook(new Thread(JVM::closeAll, "zkchaos-shutdown"));
        }
    }

    /** Forgets {@code resource} (it has closed). */
    public static void unregister(AutoCloseable resource) {
        JVM.remove(resource);
    }

    void add(AutoCloseable resource) {
        open.addLast(resource);
    }

    void remove(AutoCloseable resource) {
        open.remove(resource);
    }

    /** What is registered, oldest first. */
    List<AutoCloseable> open() {
        return List.copyOf(open);
    }

    /** Closes everything registered, newest first; each failure is logged. */
    void closeAll() {
        for (Iterator<AutoCloseable> it = open.descendingIterator(); it.hasNext(); ) {
            AutoCloseable r = it.next();
            try {
                r.close();
            } catch (Exception e) {
                LOG.warn("closing {} at shutdown: {}", r, e.toString());
            }
            open.remove(r);
        }
    }
}
