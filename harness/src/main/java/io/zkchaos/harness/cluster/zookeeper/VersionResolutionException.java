package io.zkchaos.harness.cluster.zookeeper;

/** A ZooKeeper version whose server jars could not be resolved; the message names the version and where it looked. */
public final class VersionResolutionException extends RuntimeException {

    private final String version;

    public VersionResolutionException(String version, String message, Throwable cause) {
        super(message, cause);
        this.version = version;
    }

    /** The version that could not be resolved. */
    public String version() {
        return version;
    }
}
