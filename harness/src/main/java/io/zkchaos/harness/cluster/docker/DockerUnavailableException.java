package io.zkchaos.harness.cluster.docker;

/** The docker backend cannot run here: a setting is missing, no engine answers, or an image is not there. */
public class DockerUnavailableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public DockerUnavailableException(String message) {
        super(message);
    }

    public DockerUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
