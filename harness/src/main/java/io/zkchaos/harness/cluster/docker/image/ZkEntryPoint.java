package io.zkchaos.harness.cluster.docker.image;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The entry point of the ZooKeeper image the Docker backend builds when the official one cannot be pulled (an image
 * {@code FROM scratch}: no shell). It writes the server's files from the environment, then runs
 * {@code QuorumPeerMain} in this same JVM, so that the server is the container's process 1 and {@code docker kill}
 * is a SIGKILL of the server:
 * <ul>
 *   <li>{@value #CFG_ENV}: the whole {@code zoo.cfg}, written to {@value #CFG_FILE};</li>
 *   <li>{@value #MYID_ENV}: the server id, written to {@code <dataDir>/myid} (dataDir read from the config).</li>
 * </ul>
 * JVM options come from {@code JDK_JAVA_OPTIONS}, which the {@code java} launcher reads. It uses {@code java.base}
 * only and loads ZooKeeper by name, so one entry point serves every ZooKeeper version.
 */
public final class ZkEntryPoint {

    /** The environment variable holding the configuration. */
    public static final String CFG_ENV = "ZKCHAOS_ZOO_CFG";
    /** The environment variable holding the server id. */
    public static final String MYID_ENV = "ZKCHAOS_MYID";
    /** Where the configuration is written. */
    public static final String CFG_FILE = "/conf/zoo.cfg";

    private ZkEntryPoint() {
    }

    public static void main(String[] args) throws Exception {
        String cfg = System.getenv(CFG_ENV);
        String myid = System.getenv(MYID_ENV);
        if (cfg == null || cfg.isBlank() || myid == null || myid.isBlank()) {
            System.err.println("zk-chaos entry point: set " + CFG_ENV + " (the whole zoo.cfg) and " + MYID_ENV
                    + " (the server id)");
            System.exit(2);
        }
        Path cfgFile = Path.of(CFG_FILE);
        Files.createDirectories(cfgFile.getParent());
        Files.writeString(cfgFile, cfg, StandardCharsets.UTF_8);
        String dataDir = "/data";
        for (String line : cfg.split("\n")) {
            String l = line.trim();
            if (l.startsWith("dataDir=")) {
                dataDir = l.substring("dataDir=".length()).trim();
            }
        }
        Path data = Path.of(dataDir);
        Files.createDirectories(data);
        Files.writeString(data.resolve("myid"), myid.trim() + "\n", StandardCharsets.UTF_8);
        String tmp = System.getProperty("java.io.tmpdir");
        if (tmp != null) {
            Files.createDirectories(Path.of(tmp));
        }
        run("org.apache.zookeeper.server.quorum.QuorumPeerMain", new String[] {CFG_FILE});
    }

    private static void run(String mainClass, String[] args) throws IOException, ReflectiveOperationException {
        try {
            Class.forName(mainClass).getMethod("main", String[].class).invoke(null, (Object) args);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw e;
        }
    }
}
