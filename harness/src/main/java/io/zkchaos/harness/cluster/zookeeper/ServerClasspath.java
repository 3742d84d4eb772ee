package io.zkchaos.harness.cluster.zookeeper;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The jars a ZooKeeper server of one version runs from, as resolved into the local Maven repository.
 *
 * @param version the ZooKeeper version, e.g. {@code 3.9.5}
 * @param jars    the server jar first, then its runtime dependencies; absolute paths that exist
 */
public record ServerClasspath(String version, List<Path> jars) {

    public ServerClasspath {
        Objects.requireNonNull(version, "version");
        jars = List.copyOf(jars);
        if (jars.isEmpty()) {
            throw new IllegalArgumentException("jars: empty for ZooKeeper " + version);
        }
    }

    /** The jars joined with the platform's path separator, for {@code java -cp}. */
    public String asClasspathArgument() {
        return jars.stream().map(Path::toString).collect(Collectors.joining(java.io.File.pathSeparator));
    }
}
