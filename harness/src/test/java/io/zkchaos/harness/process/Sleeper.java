package io.zkchaos.harness.process;

/**
 * A dummy child process for the process layer's tests: {@code Sleeper <seconds> [exit code]} sleeps for the given
 * seconds (at most 120), then exits with the code (0 by default).
 */
public final class Sleeper {

    private Sleeper() {
    }

    public static void main(String[] args) throws InterruptedException {
        Thread.sleep(Math.min(120, Long.parseLong(args[0])) * 1000L);
        System.exit(args.length > 1 ? Integer.parseInt(args[1]) : 0);
    }
}
