package io.zkchaos.workloads.watches;

import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.zookeeper.WatchedEvent;

/**
 * Deliberately broken watchers, to prove the {@code watches} checker end to end: wrapped around a real session's
 * watchers, they lose or reorder what the ZooKeeper client dispatched, as a buggy client library or event queue
 * would. Never used by the workloads the CLI runs.
 */
public final class BrokenWatchers {

    private BrokenWatchers() {
    }

    /** Drops every {@code every}-th watch event of each session. */
    public static Supplier<EventTap> dropping(int every) {
        requirePositive(every);
        return () -> new EventTap() {
            private int seen;

            @Override
            public void deliver(WatchedEvent event, Consumer<WatchedEvent> record) {
                if (++seen % every != 0) {
                    record.accept(event);
                }
            }
        };
    }

    /**
     * Holds every {@code every}-th watch event of each session back until the session's next event has been
     * delivered: the two arrive swapped, and whatever the session read meanwhile came before the held one.
     */
    public static Supplier<EventTap> reordering(int every) {
        requirePositive(every);
        return () -> new EventTap() {
            private int seen;
            private Runnable held; // the held event with the watcher that got it

            @Override
            public void deliver(WatchedEvent event, Consumer<WatchedEvent> record) {
                if (held != null) {
                    record.accept(event);
                    held.run();
                    held = null;
                } else if (++seen % every == 0) {
                    held = () -> record.accept(event);
                } else {
                    record.accept(event);
                }
            }
        };
    }

    private static void requirePositive(int every) {
        if (every < 1) {
            throw new IllegalArgumentException("every must be at least 1, got " + every);
        }
    }
}
