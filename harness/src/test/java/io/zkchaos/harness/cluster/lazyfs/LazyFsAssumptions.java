package io.zkchaos.harness.cluster.lazyfs;

import org.junit.jupiter.api.Assumptions;

/** Skips a test, loudly, where the lazy file system cannot run. */
public final class LazyFsAssumptions {

    private LazyFsAssumptions() {
    }

    /** Skips the calling test unless FUSE, root, gcc and libfuse3 are here; says on stderr what is missing. */
    public static void assumeAvailable() {
        LazyFs.unavailable().ifPresent(why -> {
            System.err.println("SKIPPED: the lazy file system cannot run here: " + why);
            Assumptions.abort("the lazy file system cannot run here: " + why);
        });
    }
}
