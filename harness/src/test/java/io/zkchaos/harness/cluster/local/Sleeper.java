package io.zkchaos.harness.cluster.local;

/** A dummy child process for the reaper test: sleeps for the given seconds (bounded), then exits. */
public final class Sleeper {

    private Sleeper() {
    }

    public static void main(String[] args) throws InterruptedException {
        Thread.sleep(Math.min(120, Long.parseLong(args[0])) * 1000L);
    }
}
