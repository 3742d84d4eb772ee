package io.zkchaos.workloads;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Where clients connect and how long they wait.
 *
 * @param connectString  the whole ensemble, as ZooKeeper takes it ({@code host:port,host:port})
 * @param servers        each server by name ({@code n1} ...) with its own {@code host:port}, in order; final reads
 *                       go to each one alone
 * @param sessionTimeout the session timeout clients ask for
 * @param requestTimeout the longest a single client call may take before it is abandoned as indeterminate
 *                       (ZooKeeper's {@code zookeeper.request.timeout}); also bounds connecting
 * @param acls           the ACLs the workloads give their znodes, and the identities their sessions take
 */
public record Target(String connectString, Map<String, String> servers, Duration sessionTimeout,
                     Duration requestTimeout, ZnodeAcls acls) {

    public Target {
        Objects.requireNonNull(connectString, "connectString");
        if (connectString.isBlank()) {
            throw new IllegalArgumentException("connectString must not be blank");
        }
        servers = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(servers, "servers")));
        if (servers.isEmpty()) {
            throw new IllegalArgumentException("servers must name at least one server");
        }
        requirePositive(sessionTimeout, "sessionTimeout");
        requirePositive(requestTimeout, "requestTimeout");
        Objects.requireNonNull(acls, "acls");
    }

    /** With open ACLs ({@link ZnodeAcls#OPEN}). */
    public Target(String connectString, Map<String, String> servers, Duration sessionTimeout,
                  Duration requestTimeout) {
        this(connectString, servers, sessionTimeout, requestTimeout, ZnodeAcls.OPEN);
    }

    private static void requirePositive(Duration d, String name) {
        Objects.requireNonNull(d, name);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, got " + d);
        }
    }

    /** A target with default timeouts (session 6 s, request 5 s). */
    public static Target of(String connectString, Map<String, String> servers) {
        return new Target(connectString, servers, Duration.ofSeconds(6), Duration.ofSeconds(5));
    }

    public Target withTimeouts(Duration session, Duration request) {
        return new Target(connectString, servers, session, request, acls);
    }

    public Target withAcls(ZnodeAcls a) {
        return new Target(connectString, servers, sessionTimeout, requestTimeout, a);
    }

    /** The same servers and settings, connecting to {@code connect} (a server or a part of the ensemble). */
    public Target connectingTo(String connect) {
        return new Target(connect, servers, sessionTimeout, requestTimeout, acls);
    }
}
