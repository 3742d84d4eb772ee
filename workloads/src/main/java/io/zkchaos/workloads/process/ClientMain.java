package io.zkchaos.workloads.process;

import io.zkchaos.workloads.RunContext;
import io.zkchaos.workloads.Sessions;
import io.zkchaos.workloads.SlottedWorkload;
import io.zkchaos.workloads.Workloads;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.time.Duration;

/**
 * The main class of a client process: runs one slot of a workload ({@link SlottedWorkload#runSlot}) in a JVM of its
 * own, with its own ZooKeeper sessions, and reports every operation to the harness over its stdout
 * ({@link HarnessLink}). Argument: the {@link ClientSpec} as JSON.
 *
 * <p>Its stdout carries the reports alone: {@code System.out} is pointed at stderr (the process's log) before
 * anything else runs. It warms up (one session opened and closed), says hello, waits for the harness's go (which says
 * how long the run's clients go on from then),
 * runs the slot, says bye once every operation it started is completed, and exits 0. Exit code 2: bad arguments;
 * 1: the slot failed; it halts at once when the harness closes its stdin (the harness is gone).
 */
public final class ClientMain {

    /** How long a client process waits for the harness's go. */
    static final Duration GO_BOUND = Duration.ofMinutes(2);

    private ClientMain() {
    }

    public static void main(String[] args) {
        OutputStream reports = new FileOutputStream(FileDescriptor.out);
        System.setOut(System.err); // whatever anyone prints goes to the log, never into the reports
        if (args.length != 1) {
            System.err.println("usage: ClientMain <client spec as JSON>");
            System.exit(2);
        }
        ClientSpec spec;
        SlottedWorkload workload;
        try {
            spec = ClientSpec.fromJson(args[0]);
            workload = Workloads.require(spec.workload()).createSlotted(spec.options());
        } catch (IllegalArgumentException e) {
            System.err.println("client process: " + e.getMessage());
            System.exit(2);
            return;
        }
        HarnessLink link = new HarnessLink(System.in, reports, () -> {
            System.err.println("client process: the harness closed the link; halting");
            Runtime.getRuntime().halt(3);
        });
        try {
            warmUp(spec);
            link.hello();
            Duration left = link.awaitGo(GO_BOUND);
            if (left.isZero()) {
                left = Duration.ofMillis(1);
            }
            System.err.println("client process: slot " + spec.slot() + " from process " + spec.firstProcess()
                    + " runs " + spec.workload() + " for " + left.toMillis() + " ms");
            workload.runSlot(new RunContext(spec.target(), link.recorder(), spec.seed(), spec.concurrency(), left,
                    link.stop()), spec.slot(), spec.firstProcess());
            link.bye();
        } catch (Exception e) {
            System.err.println("client process: slot " + spec.slot() + " failed: " + e);
            e.printStackTrace(System.err);
            System.exit(1);
        }
        System.err.println("client process: slot " + spec.slot() + " done");
        System.exit(0);
    }

    /**
     * Opens and closes one ZooKeeper session before saying hello, so that the client's classes are loaded and the
     * servers are reachable by the time the run starts: on a loaded machine a cold JVM takes seconds to record its
     * first operation, and the nemesis's first fault must not find every client still starting. A failure is only
     * logged: the slot's own sessions retry.
     */
    private static void warmUp(ClientSpec spec) throws InterruptedException {
        try {
            Sessions.closeQuietly(Sessions.open(spec.connectString(), spec.target(), null));
        } catch (java.io.IOException e) {
            System.err.println("client process: warm-up session failed: " + e.getMessage());
        }
    }
}
