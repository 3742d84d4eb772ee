package io.zkchaos.workloads.sessions;

import java.io.IOException;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ConnectStringParser;
import org.apache.zookeeper.client.StaticHostProvider;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.proto.RequestHeader;

/**
 * A ZooKeeper handle whose close says what the servers answered. {@link ZooKeeper#close()} sends the close request
 * and drops the answer, so a caller cannot tell a committed close from one lost with the connection; a history that
 * judges what a read may see after a close needs to know. {@link #closeSession} sends the same request through the
 * same connection ({@code cnxn}, which ZooKeeper leaves to subclasses) and shuts the client down as {@code close()}
 * does. Public for the session churn ({@code workloads.churn}), which ends sessions this way too.
 */
public class ReportingZooKeeper extends ZooKeeper {

    /** A new session. */
    public ReportingZooKeeper(String connectString, int sessionTimeoutMs, Watcher watcher, ZKClientConfig config)
            throws IOException {
        super(connectString, sessionTimeoutMs, watcher, config);
    }

    /** Another handle of an existing session (it takes the session over from the handle that opened it). */
    ReportingZooKeeper(String connectString, int sessionTimeoutMs, Watcher watcher, long sessionId, byte[] password,
                       ZKClientConfig config) throws IOException {
        super(connectString, sessionTimeoutMs, watcher, sessionId, password, false,
                new StaticHostProvider(new ConnectStringParser(connectString).getServerAddresses()), config);
    }

    /**
     * Closes the session and this handle.
     *
     * @return the servers' answer to the close: 0 when the close was committed; a connection loss or a request
     *         timeout leaves it unknown; a handle already closed or expired answers session-expired without asking
     */
    public synchronized int closeSession() throws InterruptedException {
        if (!getState().isAlive()) {
            return KeeperException.Code.SESSIONEXPIRED.intValue();
        }
        RequestHeader h = new RequestHeader();
        h.setType(ZooDefs.OpCode.closeSession);
        try {
            return cnxn.submitRequest(h, null, null, null).getErr();
        } finally {
            cnxn.disconnect();
        }
    }
}
