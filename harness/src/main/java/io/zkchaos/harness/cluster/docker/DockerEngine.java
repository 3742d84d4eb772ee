package io.zkchaos.harness.cluster.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Info;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.testcontainers.DockerClientFactory;

/**
 * The Docker engine the backend talks to, through Testcontainers (which honours {@code DOCKER_HOST}, so the engine
 * may be another machine's). Before Testcontainers is touched it checks the two settings without which Testcontainers
 * would pull an image, because nothing here may ever pull (a machine without an image registry would have its daemon
 * reach off the machine; a machine with one would fetch code nobody asked for):
 * <ul>
 *   <li>{@code TESTCONTAINERS_RYUK_DISABLED=true}: Testcontainers' reaper, Ryuk, is a container whose image it
 *       pulls. zk-chaos reaps its own containers and networks by label ({@link DockerReaper}).</li>
 *   <li>{@code TESTCONTAINERS_HOST_OVERRIDE} (e.g. {@code localhost}) when this process runs inside a container and
 *       reaches the engine through a Unix socket: Testcontainers would otherwise look for the engine's address
 *       with a helper container ({@code alpine}) that it pulls.</li>
 * </ul>
 * Testcontainers reads both from the environment only, so they cannot be set from here: {@link #unavailable()}
 * names what is missing.
 */
public final class DockerEngine {

    /** The variable that disables Ryuk. */
    public static final String RYUK_DISABLED = "TESTCONTAINERS_RYUK_DISABLED";
    /** The variable that names the host where published ports are reached. */
    public static final String HOST_OVERRIDE = "TESTCONTAINERS_HOST_OVERRIDE";

    private DockerEngine() {
    }

    /**
     * Why the backend cannot use Docker here, or empty when it can: a setting that is missing, or no engine that
     * answers. Never pulls and never throws.
     */
    public static synchronized Optional<String> unavailable() {
        Optional<String> settings = missingSettings();
        if (settings.isPresent()) {
            return settings;
        }
        try {
            DockerClientFactory.instance().client().pingCmd().exec();
            return Optional.empty();
        } catch (RuntimeException | LinkageError e) {
            return Optional.of("no Docker engine answers (DOCKER_HOST=" + env("DOCKER_HOST", "unset") + "): "
                    + rootMessage(e));
        }
    }

    /** The settings this process lacks for a pull-free Testcontainers, as a message; empty when none is missing. */
    static Optional<String> missingSettings() {
        if (!"true".equalsIgnoreCase(env(RYUK_DISABLED, ""))) {
            return Optional.of("set " + RYUK_DISABLED + "=true: Testcontainers' Ryuk would need its image pulled, "
                    + "and zk-chaos never pulls (it removes its own containers and networks, by label)");
        }
        String host = env("DOCKER_HOST", "");
        boolean unixSocket = host.isEmpty() || host.startsWith("unix:");
        if (Files.exists(Path.of("/.dockerenv")) && unixSocket && env(HOST_OVERRIDE, "").isBlank()) {
            return Optional.of("set " + HOST_OVERRIDE + "=localhost (or the engine's address): this process runs "
                    + "in a container, and Testcontainers would pull an image to find the engine's address");
        }
        return Optional.empty();
    }

    /**
     * The Testcontainers Docker client.
     *
     * @throws DockerUnavailableException naming what is missing
     */
    public static DockerClient client() {
        Optional<String> why = unavailable();
        if (why.isPresent()) {
            throw new DockerUnavailableException("the docker backend cannot run: " + why.get());
        }
        return DockerClientFactory.instance().client();
    }

    /** The engine's CPU architecture as Go names it ({@code amd64}, {@code arm64}), and its OS. */
    static String platform(DockerClient client) {
        Info info = client.infoCmd().exec();
        return info.getOsType() + "/" + goArch(info.getArchitecture());
    }

    /** This JVM's platform, named as {@link #platform}. */
    static String localPlatform() {
        return System.getProperty("os.name").toLowerCase().replace(" ", "") + "/"
                + goArch(System.getProperty("os.arch"));
    }

    private static String goArch(String arch) {
        return switch (arch == null ? "" : arch) {
            case "x86_64", "amd64" -> "amd64";
            case "aarch64", "arm64" -> "arm64";
            default -> arch;
        };
    }

    /**
     * Who runs this harness, as container labels name it: the host name and the kernel's boot id, so that a
     * harness on another machine (or another boot) sharing the engine never counts as ours.
     */
    static String hostIdentity() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            host = env("HOSTNAME", "unknown-host");
        }
        String boot;
        try {
            boot = Files.readString(Path.of("/proc/sys/kernel/random/boot_id")).trim();
        } catch (IOException e) {
            boot = "no-boot-id";
        }
        return host + "/" + boot;
    }

    private static String env(String name, String fallback) {
        String v = System.getenv(name);
        return v == null ? fallback : v;
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t == e ? String.valueOf(e.getMessage()) : e.getMessage() + " (" + t + ")";
    }
}
