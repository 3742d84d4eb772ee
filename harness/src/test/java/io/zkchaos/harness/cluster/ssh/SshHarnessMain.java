package io.zkchaos.harness.cluster.ssh;

import io.zkchaos.harness.cluster.ClusterConfig;
import java.nio.file.Path;
import java.util.List;

/**
 * A stand-in harness for {@link SshClusterIT}: starts a 1-node ensemble on the first host of the hosts file
 * {@code args[1]} (with the SSH client configuration {@code args[2]}, the known-hosts file {@code args[3]} and the
 * remote directory {@code args[4]}) in the run directory {@code args[0]}, cuts its client link (so that the host
 * holds a rule), prints {@code SERVER <pid> <run id>} and waits (at most 120 s) to be ended from outside.
 */
public final class SshHarnessMain {

    private SshHarnessMain() {
    }

    public static void main(String[] args) throws Exception {
        SshSettings settings = SshSettings.of(List.of(HostsFile.read(Path.of(args[1])).get(0)))
                .withIdentity(null, args[2]).withKnownHosts(SshSettings.KnownHosts.STRICT, args[3])
                .withRemoteDirectory(args[4]);
        SshCluster c = SshCluster.start(ClusterConfig.builder().nodes(1).runDirectory(Path.of(args[0])).build(),
                settings);
        c.links().cutClient("n1");
        System.out.println("SERVER " + c.pid("n1") + " " + c.runId());
        System.out.flush();
        Thread.sleep(120_000);
    }
}
