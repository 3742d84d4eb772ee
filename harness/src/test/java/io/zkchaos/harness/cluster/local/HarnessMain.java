package io.zkchaos.harness.cluster.local;

import io.zkchaos.harness.cluster.ClusterConfig;
import java.nio.file.Path;

/**
 * A stand-in harness for {@link HarnessDeathIT}: starts a 1-node ensemble in {@code args[0]}, prints
 * {@code SERVER <pid>} and waits (at most 120 s) to be ended from outside.
 */
public final class HarnessMain {

    private HarnessMain() {
    }

    public static void main(String[] args) throws Exception {
        LocalCluster c = LocalCluster.start(ClusterConfig.builder().nodes(1).proxied(false)
                .runDirectory(Path.of(args[0])).build());
        System.out.println("SERVER " + c.pid("n1"));
        System.out.flush();
        Thread.sleep(120_000);
    }
}
