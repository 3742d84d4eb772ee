package io.zkchaos.harness.cluster.docker;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.ConflictException;
import com.github.dockerjava.api.exception.NotFoundException;
import io.zkchaos.harness.cluster.docker.image.ZkEntryPoint;
import io.zkchaos.harness.cluster.server.ServerLogging;
import io.zkchaos.harness.cluster.zookeeper.ServerClasspath;
import io.zkchaos.harness.cluster.zookeeper.ZooKeeperResolver;
import io.zkchaos.nemesis.toxiproxy.ToxiproxyMain;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which images a Docker ensemble runs, and where they come from. Nothing is ever pulled. With
 * {@value #MODE_PROPERTY}{@code =auto} (the default) the official images are used when they are present on the
 * engine (pulled beforehand by whoever may: {@code docker pull zookeeper:3.9.5}), and otherwise substitutes are built
 * on the engine from what this machine has, with no network:
 * <ul>
 *   <li>ZooKeeper: {@code FROM scratch}, a runtime jlinked from this JDK, the libraries ldd lists, the jars of the
 *       version under test as the local backend resolves them, and {@link ZkEntryPoint};</li>
 *   <li>Toxiproxy: {@code FROM scratch}, the same runtime, and the project's own proxy serving Toxiproxy's API
 *       ({@link ToxiproxyMain}), with the classes this harness runs.</li>
 * </ul>
 * Built images are tagged by a hash of their content ({@code zkchaos/zookeeper:3.9.5-<hash>}) and kept, so the next
 * run finds them; building one removes the earlier builds of the same kind (same ZooKeeper version) that are older
 * than {@link #PRUNE_AFTER} and used by no container, so changing code does not pile up images on the engine.
 * {@code official} requires the official images; {@code built} always uses (and builds) the substitutes. The official names can be changed with {@value #ZOOKEEPER_IMAGE_PROPERTY} ({@code {version}} is
 * replaced) and {@value #TOXIPROXY_IMAGE_PROPERTY}.
 */
final class DockerImages {

    static final String MODE_PROPERTY = "zkchaos.docker.images";
    static final String ZOOKEEPER_IMAGE_PROPERTY = "zkchaos.docker.zookeeperImage";
    static final String TOXIPROXY_IMAGE_PROPERTY = "zkchaos.docker.toxiproxyImage";
    static final String OFFICIAL_ZOOKEEPER = "zookeeper:{version}";
    static final String OFFICIAL_TOXIPROXY = "ghcr.io/shopify/toxiproxy:2.12.0";
    /** The label every built image carries. */
    static final String BUILT_LABEL = "io.zkchaos.built";

    /**
     * How old an earlier build must be before a new build of its kind removes it: younger, it may be another
     * harness's, just built and about to start.
     */
    static final Duration PRUNE_AFTER = Duration.ofHours(1);

    private static final Logger LOG = LoggerFactory.getLogger(DockerImages.class);

    private DockerImages() {
    }

    /** An image in use: its name, whether it is official, and a line on where it came from. */
    record Image(String name, boolean official, String origin) {
        @Override
        public String toString() {
            return name + " (" + origin + ")";
        }
    }

    private enum Mode { AUTO, OFFICIAL, BUILT }

    private static Mode mode() {
        String m = System.getProperty(MODE_PROPERTY, "auto").trim().toUpperCase(Locale.ROOT);
        try {
            return Mode.valueOf(m);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(MODE_PROPERTY + " must be auto, official or built, was '"
                    + System.getProperty(MODE_PROPERTY) + "'");
        }
    }

    /** The ZooKeeper image of {@code version}: official if present (and allowed), else built. */
    static Image zookeeper(DockerClient client, String version, ZooKeeperResolver resolver) {
        String official = System.getProperty(ZOOKEEPER_IMAGE_PROPERTY, OFFICIAL_ZOOKEEPER).replace("{version}",
                version);
        return choose(client, official, () -> buildZooKeeper(client, version, resolver));
    }

    /** The Toxiproxy image: official if present (and allowed), else the project's own. */
    static Image toxiproxy(DockerClient client) {
        String official = System.getProperty(TOXIPROXY_IMAGE_PROPERTY, OFFICIAL_TOXIPROXY);
        return choose(client, official, () -> buildToxiproxy(client));
    }

    private static Image choose(DockerClient client, String official, java.util.function.Supplier<Image> build) {
        Mode mode = mode();
        if (mode != Mode.BUILT && present(client, official)) {
            return new Image(official, true, "official, present on the engine");
        }
        if (mode == Mode.OFFICIAL) {
            throw new DockerUnavailableException("image " + official + " is not on the engine, and zk-chaos never "
                    + "pulls: pull it yourself (docker pull " + official + "), or let zk-chaos build a substitute ("
                    + MODE_PROPERTY + "=auto)");
        }
        return build.get();
    }

    static boolean present(DockerClient client, String image) {
        try {
            client.inspectImageCmd(image).exec();
            return true;
        } catch (NotFoundException e) {
            return false;
        }
    }

    private static void requireSamePlatform(DockerClient client) {
        String engine = DockerEngine.platform(client);
        String local = DockerEngine.localPlatform();
        if (!engine.equals(local)) {
            throw new DockerUnavailableException("cannot build images for an engine on " + engine + " from this "
                    + local + " machine (the runtime and libraries are this machine's): have the official images "
                    + "present on the engine");
        }
    }

    private static Image buildZooKeeper(DockerClient client, String version, ZooKeeperResolver resolver) {
        ServerClasspath cp = resolver.resolve(version);
        String dockerfile = """
                FROM scratch
                COPY rootfs/ /
                ENTRYPOINT ["%s", "-cp", "/opt/zk/entry:/opt/zk/conf:/opt/zk/lib/*", "%s"]
                """.formatted(ScratchImage.JAVA, ZkEntryPoint.class.getName());
        List<byte[]> parts = new ArrayList<>(runtimeParts());
        parts.add(dockerfile.getBytes(StandardCharsets.UTF_8));
        parts.add(ServerLogging.logback().getBytes(StandardCharsets.UTF_8));
        parts.add(ServerLogging.log4j().getBytes(StandardCharsets.UTF_8));
        parts.add(classBytes(ZkEntryPoint.class));
        for (Path jar : cp.jars()) {
            parts.add(jar.getFileName().toString().getBytes(StandardCharsets.UTF_8));
            parts.add(ScratchImage.contentOf(jar));
        }
        String tag = "zkchaos/zookeeper:" + version + "-" + ScratchImage.hash(parts);
        if (present(client, tag)) {
            return new Image(tag, false, "built earlier from the Maven jars of " + version);
        }
        requireSamePlatform(client);
        Map<String, String> labels = Map.of(BUILT_LABEL, "zookeeper", "io.zkchaos.zookeeper.version", version);
        long t0 = System.nanoTime();
        try (ScratchImage image = new ScratchImage()) {
            image.addRuntime();
            for (Path jar : cp.jars()) {
                image.copy(jar, "/opt/zk/lib/" + jar.getFileName());
            }
            image.writeClass(ZkEntryPoint.class, "/opt/zk/entry");
            image.write("/opt/zk/conf/logback.xml", ServerLogging.logback());
            image.write("/opt/zk/conf/log4j.properties", ServerLogging.log4j());
            image.build(tag, dockerfile, labels);
        }
        String took = String.format("%.1f s", (System.nanoTime() - t0) / 1e9);
        LOG.info("built {} in {}", tag, took);
        pruneOlderBuilds(client, labels, tag, PRUNE_AFTER);
        return new Image(tag, false, "built here in " + took + " from the Maven jars of " + version);
    }

    private static Image buildToxiproxy(DockerClient client) {
        List<Path> sources = new ArrayList<>();
        for (Class<?> c : List.of(ToxiproxyMain.class, ObjectMapper.class, JsonFactory.class, JsonProperty.class,
                LoggerFactory.class, ch.qos.logback.classic.Logger.class, ch.qos.logback.core.Appender.class)) {
            Path p = codeSource(c);
            if (!sources.contains(p)) {
                sources.add(p);
            }
        }
        StringBuilder classpath = new StringBuilder("/opt/proxy/conf:/opt/proxy/lib/*");
        for (int i = 0; i < sources.size(); i++) {
            if (Files.isDirectory(sources.get(i))) {
                classpath.append(":/opt/proxy/classes/").append(i);
            }
        }
        String dockerfile = """
                FROM scratch
                COPY rootfs/ /
                EXPOSE 8474
                ENTRYPOINT ["%s", "-XX:-UsePerfData", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xmx128m", \
                "-cp", "%s", "%s"]
                CMD ["-host=0.0.0.0"]
                """.formatted(ScratchImage.JAVA, classpath, ToxiproxyMain.class.getName());
        List<byte[]> parts = new ArrayList<>(runtimeParts());
        parts.add(dockerfile.getBytes(StandardCharsets.UTF_8));
        parts.add(ServerLogging.logback().getBytes(StandardCharsets.UTF_8));
        for (Path p : sources) {
            parts.add(p.getFileName().toString().getBytes(StandardCharsets.UTF_8));
            parts.add(ScratchImage.contentOf(p));
        }
        String tag = "zkchaos/toxiproxy:" + ScratchImage.hash(parts);
        if (present(client, tag)) {
            return new Image(tag, false, "built earlier from the project's FaultProxy");
        }
        requireSamePlatform(client);
        long t0 = System.nanoTime();
        try (ScratchImage image = new ScratchImage()) {
            image.addRuntime();
            for (int i = 0; i < sources.size(); i++) {
                Path p = sources.get(i);
                image.copy(p, Files.isDirectory(p) ? "/opt/proxy/classes/" + i : "/opt/proxy/lib/" + p.getFileName());
            }
            image.write("/opt/proxy/conf/logback.xml", ServerLogging.logback());
            image.build(tag, dockerfile, Map.of(BUILT_LABEL, "toxiproxy"));
        }
        String took = String.format("%.1f s", (System.nanoTime() - t0) / 1e9);
        LOG.info("built {} in {}", tag, took);
        pruneOlderBuilds(client, Map.of(BUILT_LABEL, "toxiproxy"), tag, PRUNE_AFTER);
        return new Image(tag, false, "built here in " + took + " from the project's FaultProxy");
    }

    /**
     * Removes the images carrying all of {@code labels}, other than {@code keep}, created more than {@code age} ago;
     * an image a container uses stays (the engine refuses). Never fails: an image it cannot remove is logged.
     *
     * @return the tags (or ids, for an untagged image) removed
     */
    static List<String> pruneOlderBuilds(DockerClient client, Map<String, String> labels, String keep,
            Duration age) {
        long before = Instant.now().minus(age).getEpochSecond();
        List<String> removed = new ArrayList<>();
        List<com.github.dockerjava.api.model.Image> images;
        try {
            images = client.listImagesCmd().withLabelFilter(labels).exec();
        } catch (RuntimeException e) {
            LOG.warn("cannot list the earlier builds to prune ({}): {}", labels, e.toString());
            return removed;
        }
        for (com.github.dockerjava.api.model.Image i : images) {
            List<String> tags = i.getRepoTags() == null ? List.of() : List.of(i.getRepoTags());
            if (tags.contains(keep) || i.getCreated() == null || i.getCreated() > before) {
                continue;
            }
            String name = tags.isEmpty() || tags.get(0).startsWith("<none>") ? i.getId() : tags.get(0);
            try {
                client.removeImageCmd(i.getId()).withForce(false).exec();
                removed.add(name);
                LOG.info("removed {}, an earlier build superseded by {}", name, keep);
            } catch (ConflictException | NotFoundException e) {
                LOG.debug("kept {}: {}", name, e.getMessage()); // in use by a container, or removed meanwhile
            } catch (RuntimeException e) {
                LOG.warn("cannot remove {}, an earlier build: {}", name, e.toString());
            }
        }
        return removed;
    }

    /** What the runtime of a built image depends on: this JDK and the module list. */
    private static List<byte[]> runtimeParts() {
        return List.of((System.getProperty("java.vm.version") + " " + System.getProperty("java.home") + " "
                + ScratchImage.MODULES).getBytes(StandardCharsets.UTF_8));
    }

    private static Path codeSource(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | NullPointerException e) {
            throw new IllegalStateException("cannot find where " + c.getName() + " is loaded from", e);
        }
    }

    private static byte[] classBytes(Class<?> c) {
        try (var in = c.getClassLoader().getResourceAsStream(c.getName().replace('.', '/') + ".class")) {
            return in.readAllBytes();
        } catch (java.io.IOException | NullPointerException e) {
            throw new IllegalStateException("cannot read the class file of " + c.getName(), e);
        }
    }
}
