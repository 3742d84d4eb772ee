package io.zkchaos.harness.process;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What every process whose wall clock moves has alike, wherever it runs: where libfaketime is looked for, the
 * environment the process starts with, the control file's line, and how long the library takes to read it. Why each
 * variable is set so is said by {@code ProcessClock} (the local servers and the client processes); the ssh backend preloads the same on
 * its hosts ({@code SshCluster}), with the library's path and the control file there.
 */
public final class Libfaketime {

    /** The single-threaded build (the {@code MT} one hung a JVM that reads the clock in a loop). */
    public static final String LIBRARY = "libfaketime.so.1";
    /** Where Debian's and Ubuntu's package (and a build from source) put it, looked in this order. */
    public static final List<String> DIRECTORIES = List.of("/usr/lib/x86_64-linux-gnu/faketime",
            "/usr/lib/aarch64-linux-gnu/faketime", "/usr/lib/faketime", "/usr/local/lib/faketime");
    /** The control file, in the node's directory. */
    public static final String CONTROL_FILE = "clock";
    /** A change of the control file is seen by the server within this (the library's cache, in whole seconds). */
    public static final Duration APPLIED_WITHIN = Duration.ofMillis(2100);

    private Libfaketime() {
    }

    /** Every candidate path of the library, in the order looked at. */
    public static List<String> candidates() {
        return DIRECTORIES.stream().map(d -> d + "/" + LIBRARY).toList();
    }

    /** The environment a server starts with: {@code library} preloaded, reading its offset from {@code control}. */
    public static Map<String, String> environment(String library, String control) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("LD_PRELOAD", library);
        env.put("FAKETIME_TIMESTAMP_FILE", control);
        env.put("FAKETIME_DONT_FAKE_MONOTONIC", "1");
        env.put("FAKETIME_FORCE_MONOTONIC_FIX", "0");
        env.put("FAKETIME_CACHE_DURATION", "1");
        return env;
    }

    /** The control file's whole content for {@code offset}: libfaketime's relative form, {@code +12.345\n}. */
    public static String controlLine(Duration offset) {
        return spec(offset) + "\n";
    }

    /** libfaketime's relative form: {@code +12.345} or {@code -0.800} seconds. */
    public static String spec(Duration offset) {
        long ms = offset.toMillis();
        return String.format(Locale.ROOT, "%s%d.%03d", ms < 0 ? "-" : "+", Math.abs(ms) / 1000, Math.abs(ms) % 1000);
    }

    /**
     * Waits until a running server has read a control file just written ({@link #APPLIED_WITHIN}): nothing to poll,
     * the library's cache decides.
     */
    public static void awaitApplied() {
        try {
            Thread.sleep(APPLIED_WITHIN.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
