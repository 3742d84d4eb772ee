package io.zkchaos.workloads.watches;

import java.util.function.Consumer;
import org.apache.zookeeper.WatchedEvent;

/**
 * What stands between the ZooKeeper client dispatching a watch event to one of a session's watchers and the
 * session recording it. The correct client records every event at once, in the order it was dispatched
 * ({@link #DIRECT}); {@link BrokenWatchers} holds taps that drop or reorder events, to prove that the checker catches
 * a client that does. One tap per session, called on the client's event thread only.
 */
@FunctionalInterface
public interface EventTap {

    /** Hands {@code event} on to {@code record} (now, later, or never). */
    void deliver(WatchedEvent event, Consumer<WatchedEvent> record);

    /** Every event recorded when it is dispatched. */
    EventTap DIRECT = (event, record) -> record.accept(event);
}
