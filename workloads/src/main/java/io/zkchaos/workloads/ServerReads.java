package io.zkchaos.workloads;

import io.zkchaos.checkers.history.HistoryRecorder;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;

/**
 * The harness's reads of every server after a run: one process per server, each with a session to that server alone,
 * recording {@code f} with ok value {@code {"node": "n1", ...what the reader found}}. A server that cannot be read
 * gives an {@code info} naming it; the others are still read.
 */
public final class ServerReads {

    private ServerReads() {
    }

    /** What one server holds, read through a session to it alone. */
    @FunctionalInterface
    public interface Reader {
        Map<String, Object> read(ZooKeeper zk) throws KeeperException, InterruptedException;
    }

    /** Reads every server in the target's order, processes numbered from {@code firstProcess}. */
    public static void eachServer(Target target, HistoryRecorder recorder, int firstProcess, String f, Reader reader)
            throws InterruptedException {
        int process = firstProcess;
        for (Map.Entry<String, String> server : target.servers().entrySet()) {
            Op invoke = recorder.invoke(process++, f, null, null);
            ZooKeeper zk = null;
            try {
                zk = Sessions.open(server.getValue(), target, null);
                Map<String, Object> value = new LinkedHashMap<>();
                value.put("node", server.getKey());
                value.putAll(reader.read(zk));
                recorder.complete(invoke, OpType.OK, value, null);
            } catch (InterruptedException e) {
                recorder.complete(invoke, OpType.INFO, null, "interrupted");
                throw e;
            } catch (Exception e) {
                recorder.complete(invoke, OpType.INFO, null, "server " + server.getKey() + ": "
                        + Outcomes.describe(e));
            } finally {
                Sessions.closeQuietly(zk);
            }
        }
    }
}
