package io.zkchaos.junit;

import java.time.Duration;
import org.apache.zookeeper.ZooKeeper;

/**
 * A chaos test whose client can never be opened, run by {@link ChaosTestFailureIT} through JUnit's test kit (its name
 * matches no test pattern). The client connects to the real ensemble, then reads the configuration its application
 * keeps in {@code /app-config}, which the test forgot to create: every open fails with ZooKeeper's NoNode, so no
 * operation is ever recorded. Without a bound the clients would be retried until the run ends and the empty history
 * would pass.
 */
class UnopenableClientExample {

    static final String CONFIG = "/app-config";

    @ChaosTest(time = "20s", recover = "1s", concurrency = 2, openTimeout = "2s", model = "cas-register", init = "0",
            seed = "5")
    void clientNeverOpens(ChaosContext chaos) throws InterruptedException {
        chaos.runClients(p -> new ConfiguredClient(chaos.connectString(), chaos.sessionTimeout()));
    }

    private static final class ConfiguredClient implements ChaosClient {
        private final ZooKeeper zk;

        ConfiguredClient(String connectString, Duration sessionTimeout) throws Exception {
            zk = new ZooKeeper(connectString, (int) sessionTimeout.toMillis(), event -> { });
            try {
                // waits for the session, then NoNode: the application was never configured
                zk.getData(CONFIG, false, null);
            } catch (Exception e) {
                zk.close();
                throw e;
            }
        }

        @Override
        public void step(ChaosProcess process) throws Exception {
            process.call("read", null, () -> 0L);
        }

        @Override
        public void close() throws InterruptedException {
            zk.close();
        }
    }
}
