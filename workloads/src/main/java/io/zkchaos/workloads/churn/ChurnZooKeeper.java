package io.zkchaos.workloads.churn;

import io.zkchaos.workloads.sessions.ReportingZooKeeper;
import java.io.IOException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.client.ZKClientConfig;

/**
 * A churn session's handle: closed with the servers' answer ({@link #closeSession()}), or abandoned.
 * {@link #abandon()} stops the client's threads and drops its connection without sending anything: no close request,
 * no reconnect, no ping; the session lives on in the servers until they expire it.
 */
final class ChurnZooKeeper extends ReportingZooKeeper {

    ChurnZooKeeper(String connectString, int sessionTimeoutMs, Watcher watcher, ZKClientConfig config)
            throws IOException {
        super(connectString, sessionTimeoutMs, watcher, config);
    }

    /** The client stops talking, without a close: what a hung or killed client does to its session. */
    synchronized void abandon() {
        cnxn.disconnect();
    }
}
