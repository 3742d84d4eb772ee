package io.zkchaos.fle.node;

import io.zkchaos.fle.Bugs;
import io.zkchaos.fle.Timing;
import io.zkchaos.fle.local.LocalGroup;
import java.nio.file.Path;

/**
 * A JVM that starts a {@link LocalGroup} and never closes it, for {@code NodeLifetimeIT} to kill outright: prints
 * {@code node <id> pid <pid>} for each node, then waits forever.
 */
public final class GroupLauncherMain {

    private GroupLauncherMain() {
    }

    public static void main(String[] args) throws Exception {
        LocalGroup group = LocalGroup.create(Path.of(args[0]), Integer.parseInt(args[1]), Timing.DEFAULT, Bugs.NONE);
        group.startAll();
        for (int id = 1; id <= group.size(); id++) {
            System.out.println("node " + id + " pid " + group.pid(id));
        }
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
