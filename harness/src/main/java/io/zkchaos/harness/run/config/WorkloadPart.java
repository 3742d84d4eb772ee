package io.zkchaos.harness.run.config;

import io.zkchaos.workloads.WorkloadDescriptor;
import io.zkchaos.workloads.WorkloadOptions;
import io.zkchaos.workloads.Workloads;
import java.time.Duration;
import java.util.Objects;

/**
 * What the clients do.
 *
 * @param name           the workload: a built-in one ({@link Workloads}; the builder checks it is known) or
 *                       one the run is given as a descriptor ({@link Runner#run(RunConfig,
 *                       io.zkchaos.workloads.WorkloadDescriptor)}); a word of lower-case letters, digits and
 *                       dashes, as it names the store's directory
 * @param concurrency    how many client processes run at once
 * @param options        the workload's settings
 * @param sessionTimeout the ZooKeeper session timeout clients ask for
 * @param requestTimeout the longest a client call may take before it is recorded as indeterminate
 * @param clients        threads of the harness, or a JVM of their own each
 */
public record WorkloadPart(String name, int concurrency, WorkloadOptions options, Duration sessionTimeout,
                           Duration requestTimeout, Clients clients) {
    public WorkloadPart {
        if (name == null || !name.matches("[a-z0-9][a-z0-9-]*")) {
            throw new IllegalArgumentException("workload must be a name of lower-case letters, digits and dashes,"
                    + " got '" + name + "'");
        }
        if (concurrency < 1 || concurrency > 1000) {
            throw new IllegalArgumentException("concurrency must be 1..1000, got " + concurrency);
        }
        Objects.requireNonNull(options, "workload options");
        Timing.positive(sessionTimeout, "session-timeout");
        Timing.positive(requestTimeout, "request-timeout");
        Objects.requireNonNull(clients, "clients");
        // A workload that is not built in (a JUnit test's own code) runs in the harness's threads.
        if (clients == Clients.PROCESS && !Workloads.byName(name).map(WorkloadDescriptor::processClients)
                .orElse(false)) {
            throw new IllegalArgumentException("clients can be processes only for " + String.join(", ",
                    Workloads.all().stream().filter(WorkloadDescriptor::processClients)
                            .map(WorkloadDescriptor::name).toList()) + "; workload '" + name
                    + "' runs its clients as threads (clients thread)");
        }
    }

    /** Clients as threads. */
    public WorkloadPart(String name, int concurrency, WorkloadOptions options, Duration sessionTimeout,
                        Duration requestTimeout) {
        this(name, concurrency, options, sessionTimeout, requestTimeout, Clients.THREAD);
    }

    public static WorkloadPart defaults() {
        return new WorkloadPart("register", 5, WorkloadOptions.defaults(), Duration.ofSeconds(4),
                Duration.ofSeconds(3), Clients.THREAD);
    }

    /** ZooKeeper's workload of this name ({@link RunConfig#workloadDescriptor()}: the system under test's). */
    public WorkloadDescriptor descriptor() {
        return Workloads.require(name);
    }
}
