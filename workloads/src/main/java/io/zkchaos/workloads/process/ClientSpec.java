package io.zkchaos.workloads.process;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.zkchaos.workloads.Target;
import io.zkchaos.workloads.WorkloadOptions;
import io.zkchaos.workloads.ZnodeAcls;
import io.zkchaos.workloads.Workloads;
import io.zkchaos.workloads.register.RegisterWorkload.ReadMode;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What one client process runs: a slot of a workload, against a target, with the run's seed. It travels as JSON on
 * the process's command line ({@link #toJson}, {@link #fromJson}); durations in milliseconds.
 *
 * @param workload       the workload's name ({@link Workloads})
 * @param root           {@link WorkloadOptions#root()}
 * @param keys           {@link WorkloadOptions#keys()}
 * @param reads          {@link WorkloadOptions#reads()}
 * @param holdMinMillis  {@link WorkloadOptions#holdMin()}
 * @param holdMaxMillis  {@link WorkloadOptions#holdMax()}
 * @param rate           {@link WorkloadOptions#rate()}
 * @param writeEveryMillis {@link WorkloadOptions#writeEvery()}
 * @param connectString  {@link Target#connectString()}
 * @param servers        {@link Target#servers()}
 * @param sessionMillis  {@link Target#sessionTimeout()}
 * @param requestMillis  {@link Target#requestTimeout()}
 * @param seed           the run's seed
 * @param concurrency    how many slots the run has
 * @param slot           this process's slot
 * @param firstProcess   the first logical process number it runs (later ones add the concurrency)
 * @param acls           {@link Target#acls()}, as {@link ZnodeAcls#label()}; null: open
 */
public record ClientSpec(String workload, String root, int keys, ReadMode reads, long holdMinMillis,
                         long holdMaxMillis, double rate, long writeEveryMillis, String connectString, Map<String, String> servers,
                         long sessionMillis, long requestMillis, long seed, int concurrency, int slot,
                         int firstProcess, String acls) {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    public ClientSpec {
        Workloads.require(workload);
        Objects.requireNonNull(reads, "reads");
        servers = new LinkedHashMap<>(Objects.requireNonNull(servers, "servers"));
        acls = acls == null ? ZnodeAcls.OPEN.label() : ZnodeAcls.parse(acls).label();
        if (slot < 0 || slot >= concurrency || firstProcess < 0 || firstProcess % concurrency != slot) {
            throw new IllegalArgumentException("process " + firstProcess + " is not of slot " + slot + " of "
                    + concurrency);
        }
    }

    /** The spec of {@code slot}'s client process starting at {@code firstProcess}. */
    public static ClientSpec of(String workload, WorkloadOptions o, Target t, long seed, int concurrency, int slot,
                                int firstProcess) {
        return new ClientSpec(workload, o.root(), o.keys(), o.reads(), o.holdMin().toMillis(), o.holdMax().toMillis(),
                o.rate(), o.writeEvery().toMillis(), t.connectString(), t.servers(), t.sessionTimeout().toMillis(), t.requestTimeout().toMillis(),
                seed, concurrency, slot, firstProcess, t.acls().label());
    }

    /** The same spec for a later process of the same slot (a replacement client process). */
    public ClientSpec startingAt(int process) {
        return new ClientSpec(workload, root, keys, reads, holdMinMillis, holdMaxMillis, rate, writeEveryMillis,
                connectString, servers,
                sessionMillis, requestMillis, seed, concurrency, slot, process, acls);
    }

    public WorkloadOptions options() {
        return new WorkloadOptions(root, keys, reads, Duration.ofMillis(holdMinMillis),
                Duration.ofMillis(holdMaxMillis), rate, Duration.ofMillis(writeEveryMillis), null);
    }

    public Target target() {
        return new Target(connectString, servers, Duration.ofMillis(sessionMillis), Duration.ofMillis(requestMillis),
                ZnodeAcls.parse(acls));
    }

    public String toJson() {
        try {
            return MAPPER.writeValueAsString(this);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot encode " + this, e);
        }
    }

    /** @throws IllegalArgumentException naming what is wrong with {@code json} */
    public static ClientSpec fromJson(String json) {
        try {
            return MAPPER.readValue(json, ClientSpec.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a client spec: " + e.getOriginalMessage(), e);
        }
    }
}
