package io.zkchaos.harness.cluster.local;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * Base of the ITs that start servers under a fresh run directory: {@link #runs} is a temp dir per test, and after
 * each test no live process may still run from it (a leftover server would be a leak the test missed).
 */
abstract class ProcessesUnderRuns {

    @TempDir
    Path runs;

    @AfterEach
    void noProcessLeft() {
        ClusterChecks.assertNoProcessUnder(runs);
    }
}
