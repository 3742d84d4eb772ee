package io.zkchaos.harness.cluster.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.api.model.Network;
import io.zkchaos.harness.process.Owner;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes the containers and networks a killed harness left on the engine (Testcontainers' own reaper, Ryuk, is not
 * used: its image would have to be pulled). Every container and network the backend creates carries the labels
 * {@value #RUN} (the run), {@value #OWNER} (the harness, {@code pid@startMillis}) and {@value #HOST} (the machine
 * and boot of that harness). It removes one only when it can prove a dead harness of this machine made it: the host
 * label is this machine's, and the owner is not alive here. Containers of another machine sharing the engine are
 * never touched.
 */
public final class DockerReaper {

    /** Label: the run id. */
    public static final String RUN = "io.zkchaos.run";
    /** Label: the harness that created it, {@code pid@startMillis}. */
    public static final String OWNER = "io.zkchaos.owner";
    /** Label: the machine (host name and boot id) of that harness. */
    public static final String HOST = "io.zkchaos.host";

    private static final Logger LOG = LoggerFactory.getLogger(DockerReaper.class);

    private DockerReaper() {
    }

    /** What was removed: container and network names. */
    public record Reaped(List<String> containers, List<String> networks) {
    }

    /** The labels of everything a cluster of {@code runId} started by this harness creates. */
    static Map<String, String> labels(String runId) {
        return Map.of(RUN, runId, OWNER, Owner.current().toString(), HOST, DockerEngine.hostIdentity());
    }

    /**
     * Removes what dead harnesses of this machine left. Logs what it removes; never throws (an engine that does not
     * answer, or settings that are missing, mean there is nothing it may do).
     */
    public static Reaped reapLeftovers() {
        if (DockerEngine.missingSettings().isPresent()) {
            return new Reaped(List.of(), List.of());
        }
        try {
            if (DockerEngine.unavailable().isPresent()) {
                return new Reaped(List.of(), List.of());
            }
            return reap(DockerEngine.client());
        } catch (RuntimeException e) {
            LOG.warn("could not reap leftover containers: {}", e.toString());
            return new Reaped(List.of(), List.of());
        }
    }

    /** Removes every container, then every network, that a dead harness of this machine left. */
    static Reaped reap(DockerClient client) {
        String host = DockerEngine.hostIdentity();
        List<String> containers = new ArrayList<>();
        for (Container c : client.listContainersCmd().withShowAll(true).withLabelFilter(List.of(OWNER)).exec()) {
            if (orphaned(c.getLabels(), host)) {
                String name = c.getNames() != null && c.getNames().length > 0 ? c.getNames()[0] : c.getId();
                LOG.warn("removing container {} of run {} left by dead harness {}", name, c.getLabels().get(RUN),
                        c.getLabels().get(OWNER));
                try {
                    client.removeContainerCmd(c.getId()).withForce(true).withRemoveVolumes(true).exec();
                    containers.add(name);
                } catch (RuntimeException e) {
                    LOG.warn("cannot remove container {}: {}", name, e.toString());
                }
            }
        }
        List<String> networks = new ArrayList<>();
        for (Network n : client.listNetworksCmd().exec()) {
            if (n.getLabels() != null && n.getLabels().containsKey(OWNER) && orphaned(n.getLabels(), host)) {
                LOG.warn("removing network {} of run {} left by dead harness {}", n.getName(),
                        n.getLabels().get(RUN), n.getLabels().get(OWNER));
                try {
                    client.removeNetworkCmd(n.getId()).exec();
                    networks.add(n.getName());
                } catch (RuntimeException e) {
                    LOG.warn("cannot remove network {}: {}", n.getName(), e.toString());
                }
            }
        }
        return new Reaped(containers, networks);
    }

    private static boolean orphaned(Map<String, String> labels, String host) {
        if (labels == null || !host.equals(labels.get(HOST))) {
            return false;
        }
        Optional<Owner> owner = Optional.ofNullable(labels.get(OWNER)).flatMap(Owner::parse);
        return owner.isPresent() && !owner.get().alive();
    }
}
