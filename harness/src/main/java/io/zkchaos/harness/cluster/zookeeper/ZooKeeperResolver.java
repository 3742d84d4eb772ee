package io.zkchaos.harness.cluster.zookeeper;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.regex.Pattern;
import org.eclipse.aether.RepositorySystem;
import org.eclipse.aether.RepositorySystemSession;
import org.eclipse.aether.artifact.Artifact;
import org.eclipse.aether.artifact.DefaultArtifact;
import org.eclipse.aether.collection.CollectRequest;
import org.eclipse.aether.graph.Dependency;
import org.eclipse.aether.graph.Exclusion;
import org.eclipse.aether.repository.RemoteRepository;
import org.eclipse.aether.resolution.ArtifactDescriptorException;
import org.eclipse.aether.resolution.ArtifactDescriptorRequest;
import org.eclipse.aether.resolution.ArtifactDescriptorResult;
import org.eclipse.aether.resolution.ArtifactResult;
import org.eclipse.aether.resolution.DependencyRequest;
import org.eclipse.aether.resolution.DependencyResolutionException;
import org.eclipse.aether.resolution.DependencyResult;
import org.eclipse.aether.supplier.RepositorySystemSupplier;
import org.eclipse.aether.supplier.SessionBuilderSupplier;
import org.eclipse.aether.util.artifact.JavaScopes;
import org.eclipse.aether.util.filter.DependencyFilterUtils;

/**
 * Resolves the server jars of any ZooKeeper version that a Maven repository serves into the local repository
 * (Maven Resolver, the library inside Maven itself), so that the harness tests the version users deploy.
 *
 * <p>The ZooKeeper POM marks some jars the server needs at run time as {@code provided} (metrics-core, snappy-java:
 * without them the server dies with {@code NoClassDefFoundError}) and its logging backend (logback-classic) as
 * optional. So the resolver reads the POM's own dependency list and takes every dependency but {@code test} and
 * {@code system} ones, optional and {@code provided} included, at the versions the POM manages — about what the
 * binary distribution's {@code lib/} holds.
 *
 * <p>Resolved class paths are cached per resolver instance. Thread-safe.
 */
public final class ZooKeeperResolver {

    /** Maven Central, the default remote repository. */
    public static final String CENTRAL_URL = "https://repo.maven.apache.org/maven2/";

    private static final Pattern VERSION = Pattern.compile("[0-9A-Za-z][0-9A-Za-z._-]*");

    /**
     * Jars that log4j 1.2.15 (the logging of ZooKeeper 3.3 and the early 3.4 releases, up to 3.4.3) declares but
     * Maven Central does not serve (Sun's licence); log4j runs without them, and Maven users exclude them the same way.
     */
    static final List<Exclusion> UNSERVED = List.of(
            new Exclusion("com.sun.jmx", "jmxri", "*", "*"),
            new Exclusion("com.sun.jdmk", "jmxtools", "*", "*"),
            new Exclusion("javax.jms", "jms", "*", "*"));

    private final Path localRepository;
    private final List<RemoteRepository> remotes;
    private final ConcurrentMap<String, ServerClasspath> cache = new ConcurrentHashMap<>();

    /**
     * @param localRepository where artifacts are stored (created if missing)
     * @param remoteUrls      remote repositories to download from, in order (http(s) or file URLs)
     */
    public ZooKeeperResolver(Path localRepository, List<String> remoteUrls) {
        this.localRepository = Objects.requireNonNull(localRepository, "localRepository").toAbsolutePath();
        List<RemoteRepository> list = new ArrayList<>();
        for (int i = 0; i < remoteUrls.size(); i++) {
            String id = i == 0 && remoteUrls.get(i).equals(CENTRAL_URL) ? "central" : "remote" + i;
            list.add(new RemoteRepository.Builder(id, "default", remoteUrls.get(i)).build());
        }
        this.remotes = List.copyOf(list);
    }

    /**
     * The resolver Maven users expect: the local repository named by {@code -Dmaven.repo.local}, else
     * {@code ~/.m2/repository}; Maven Central as the remote. One per local repository and JVM, so that its cache
     * serves every cluster started: resolving a version reads its POMs through maven-resolver, about a CPU-second
     * each time, which on a loaded machine was most of a run's start (5 to 20 s at load 40).
     */
    public static ZooKeeperResolver fromEnvironment() {
        String local = System.getProperty("maven.repo.local");
        Path repo = local != null && !local.isBlank()
                ? Path.of(local)
                : Path.of(System.getProperty("user.home"), ".m2", "repository");
        return SHARED.computeIfAbsent(repo.toAbsolutePath().normalize(),
                r -> new ZooKeeperResolver(r, List.of(CENTRAL_URL)));
    }

    private static final ConcurrentMap<Path, ZooKeeperResolver> SHARED = new ConcurrentHashMap<>();

    /** The local repository artifacts are resolved into. */
    public Path localRepository() {
        return localRepository;
    }

    /**
     * The server class path of {@code version}, downloading what the local repository lacks.
     *
     * @throws IllegalArgumentException    if the version is blank or malformed, naming it
     * @throws VersionResolutionException if the version or one of its jars cannot be resolved, naming the version
     */
    public ServerClasspath resolve(String version) {
        Objects.requireNonNull(version, "version");
        if (!VERSION.matcher(version).matches()) {
            throw new IllegalArgumentException("ZooKeeper version '" + version
                    + "' is malformed: expected something like 3.9.5");
        }
        return cache.computeIfAbsent(version, this::resolveUncached);
    }

    private ServerClasspath resolveUncached(String version) {
        Artifact server = new DefaultArtifact("org.apache.zookeeper", "zookeeper", "jar", version);
        RepositorySystem system = new RepositorySystemSupplier().get();
        try (RepositorySystemSession.CloseableSession session = new SessionBuilderSupplier(system).get()
                .withLocalRepositoryBaseDirectories(localRepository)
                .setSystemProperties(System.getProperties())
                .build()) {
            ArtifactDescriptorResult descriptor =
                    system.readArtifactDescriptor(session, new ArtifactDescriptorRequest(server, remotes, null));
            if (!descriptor.getExceptions().isEmpty()) {
                throw failure(version, "its POM could not be read", descriptor.getExceptions().get(0));
            }
            // A version that no repository has yields an empty descriptor rather than an error.
            Path pom = localRepository.resolve(
                    "org/apache/zookeeper/zookeeper/" + version + "/zookeeper-" + version + ".pom");
            if (!Files.exists(pom)) {
                throw failure(version, "no repository has its POM", null);
            }
            CollectRequest collect = new CollectRequest();
            collect.setRepositories(remotes);
            collect.addDependency(new Dependency(server, JavaScopes.RUNTIME).setExclusions(UNSERVED));
            for (Dependency d : descriptor.getDependencies()) {
                String scope = d.getScope();
                if (JavaScopes.TEST.equals(scope) || JavaScopes.SYSTEM.equals(scope)) {
                    continue;
                }
                // provided and optional: the server needs these at run time (metrics, snappy, its logging backend)
                List<Exclusion> exclusions = new ArrayList<>(d.getExclusions());
                exclusions.addAll(UNSERVED);
                collect.addDependency(d.setScope(JavaScopes.RUNTIME).setOptional(false).setExclusions(exclusions));
            }
            collect.setManagedDependencies(descriptor.getManagedDependencies());
            DependencyResult result = system.resolveDependencies(session,
                    new DependencyRequest(collect, DependencyFilterUtils.classpathFilter(JavaScopes.RUNTIME)));
            List<Path> jars = new ArrayList<>();
            for (ArtifactResult ar : result.getArtifactResults()) {
                Path p = ar.getArtifact().getPath();
                if (ar.getArtifact().getArtifactId().equals("zookeeper")
                        && ar.getArtifact().getGroupId().equals("org.apache.zookeeper")) {
                    jars.add(0, p);
                } else {
                    jars.add(p);
                }
            }
            return new ServerClasspath(version, jars);
        } catch (ArtifactDescriptorException e) {
            throw failure(version, "its POM could not be read", e);
        } catch (DependencyResolutionException e) {
            throw failure(version, "its jars could not be resolved", e);
        }
    }

    private VersionResolutionException failure(String version, String what, Throwable cause) {
        StringBuilder repos = new StringBuilder();
        for (RemoteRepository r : remotes) {
            repos.append(repos.length() == 0 ? "" : ", ").append(r.getUrl());
        }
        String detail = cause == null ? "" : ": " + cause.getMessage();
        return new VersionResolutionException(version, "ZooKeeper version '" + version + "' cannot be resolved ("
                + what + ") from [" + repos + "] into local repository " + localRepository + detail, cause);
    }
}
