package io.zkchaos.harness.cluster.docker;

import java.util.Optional;
import org.junit.jupiter.api.Assumptions;

/** The docker backend's tests run where an engine answers; elsewhere they are skipped, saying why. */
public final class DockerAvailable {

    private DockerAvailable() {
    }

    /** Skips the calling test (JUnit assumption) with the reason Docker cannot be used here. */
    public static void assume() {
        Optional<String> why = DockerEngine.unavailable();
        if (why.isPresent()) {
            System.out.println("SKIPPED docker backend tests: " + why.get());
        }
        Assumptions.assumeTrue(why.isEmpty(), () -> "docker backend tests skipped: " + why.orElse(""));
    }
}
