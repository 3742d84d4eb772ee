package io.zkchaos.fle.node;

import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node process: {@code java -cp <classpath> io.zkchaos.fle.node.NodeMain <config-file>}. It logs to stdout,
 * runs until it gets {@code SIGTERM} (a clean stop) or {@code SIGKILL}, and exits with
 * {@value NodeStartException#CONFIG} for a bad config, {@value NodeStartException#BIND} for an address it cannot
 * bind, {@value NodeStartException#DATA_DIR} for an unusable data dir, and {@value NodeStartException#FATAL} when it
 * stops itself at run time (a storage failure) — each with a message on stderr naming the problem. JVM options such as
 * a process marker ({@code -Dzkchaos.owner=...}) are simply carried along.
 *
 * <p>With {@code -D}{@value #STOP_WITH}{@code =<pid>} the node stops (cleanly, as on {@code SIGTERM}) once that
 * process has ended: a launcher that can die without stopping its nodes, such as a test JVM killed with
 * {@code SIGKILL}, leaves no node behind. The harness does not need it (its reaper stops the servers of a dead
 * harness at its next start); {@code LocalGroup} sets it.
 */
public final class NodeMain {

    /** The system property naming the process whose end stops the node. */
    public static final String STOP_WITH = "zkchaos.fle.stopWith";

    private NodeMain() {
    }

    public static void main(String[] args) {
        int code = run(args);
        if (code != 0) {
            System.exit(code);
        }
    }

    /** Runs a node until the JVM is told to stop; returns the exit code when it cannot start. */
    static int run(String[] args) {
        if (args.length != 1 || args[0].equals("--help") || args[0].equals("-h")) {
            System.err.println("usage: java -cp <classpath> io.zkchaos.fle.node.NodeMain <config-file>");
            System.err.println("  the config file: see docs/fle.md (zoo.cfg style: dataDir, myid, clientPort, "
                    + "server.N=host:quorumPort:electionPort, tickTime, bugs, ...)");
            return NodeStartException.CONFIG;
        }
        if (System.getProperty("logback.configurationFile") == null) {
            System.setProperty("logback.configurationFile", "fle-node-logback.xml");
        }
        Logger log = LoggerFactory.getLogger(NodeMain.class);
        NodeConfig config;
        try {
            config = NodeConfig.load(Path.of(args[0]));
        } catch (ConfigException e) {
            System.err.println("fle node: bad config: " + e.getMessage());
            return NodeStartException.CONFIG;
        }
        Optional<ProcessHandle> launcher;
        try {
            launcher = launcher(System.getProperty(STOP_WITH));
        } catch (IllegalArgumentException e) {
            System.err.println("fle node " + config.myId() + ": " + e.getMessage());
            return NodeStartException.CONFIG;
        }
        Node node;
        try {
            node = Node.start(config, fatal -> {
                log.error("fle node {}: stopping at once: {}", config.myId(), fatal.toString(), fatal);
                System.err.println("fle node " + config.myId() + ": fatal: " + fatal);
                Runtime.getRuntime().halt(NodeStartException.FATAL);
            }, (code, why) -> {
                log.error("fle node {}: exiting with code {}: {}", config.myId(), code, why);
                System.err.println("fle node " + config.myId() + ": exiting: " + why);
                Runtime.getRuntime().halt(code);
            });
        } catch (NodeStartException e) {
            System.err.println("fle node " + config.myId() + ": " + e.getMessage());
            return e.exitCode();
        }
        log.info("fle node {} running (pid {}): clients {}, quorum {}, election {}, data dir {}, tick {} ms, bugs: {}",
                config.myId(), ProcessHandle.current().pid(), config.clientAddress(), config.self().quorumAddress(),
                config.self().electionAddress(), config.dataDir(), config.timing().tickMs(), config.bugs());
        CountDownLatch forever = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            log.info("fle node {}: stopping", config.myId());
            node.close();
        }, "fle-node-shutdown"));
        launcher.ifPresent(p -> p.onExit().thenRun(() -> {
            log.info("fle node {}: process {} ({}) has ended; stopping", config.myId(), p.pid(), STOP_WITH);
            System.exit(0);
        }));
        try {
            forever.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }

    /** The process named by {@value #STOP_WITH}, if set; it must be running now. */
    static Optional<ProcessHandle> launcher(String pid) {
        if (pid == null || pid.isBlank()) {
            return Optional.empty();
        }
        long n;
        try {
            n = Long.parseLong(pid.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(STOP_WITH + " must be a process id, was '" + pid + "'");
        }
        Optional<ProcessHandle> p = ProcessHandle.of(n).filter(ProcessHandle::isAlive);
        if (p.isEmpty()) {
            throw new IllegalArgumentException("the process to stop with (" + STOP_WITH + "=" + n
                    + ") is not running");
        }
        return p;
    }
}
