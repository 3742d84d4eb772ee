package io.zkchaos.harness.cluster.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.command.WaitContainerResultCallback;
import com.github.dockerjava.api.exception.ConflictException;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.Ports;
import io.zkchaos.harness.process.ManagedProcess;
import io.zkchaos.harness.process.Signal;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.containers.GenericContainer;

/**
 * A server in a container, as a {@link ManagedProcess}: the server is the container's process 1, so the container's
 * life is the server's. The first {@link #start()} creates and starts the container (Testcontainers), later ones
 * {@code docker start} it again (its data stays in the container); {@link Signal#KILL} and {@link Signal#TERM} are
 * {@code docker kill --signal}, {@link Signal#STOP} and {@link Signal#CONT} are {@code docker pause} and
 * {@code unpause} (the cgroup freezer: the server cannot notice, as under SIGSTOP). Whether it runs and its exit code
 * are what {@code docker inspect} says; an engine that does not answer leaves it as it was last seen. Its log is the
 * container's (every incarnation's), asked of the engine.
 *
 * <p>Thread-safe: every method that asks the engine about the container is synchronized.
 */
final class ContainerProcess implements ManagedProcess {

    private static final Logger LOG = LoggerFactory.getLogger(ContainerProcess.class);

    private final String name;
    private final DockerClient client;
    private final GenericContainer<?> container;
    private final int clientPort;
    /** Whether an incarnation runs, as last seen. */
    private boolean running;
    /** Whether it is frozen ({@code docker pause}). */
    private boolean frozen;
    /** The exit code of the incarnation that ended last, as the engine said; null while one runs. */
    private Integer exitCode;
    /** Where this process reaches the server's client port: the engine publishes a new port at each start. */
    private InetSocketAddress published;
    /** Whether the container was created and started ahead ({@link #startAhead}), its first start not yet taken. */
    private boolean startedAhead;

    /**
     * @param container  the node's container, not created yet
     * @param clientPort the server's client port inside it (published by the engine)
     */
    ContainerProcess(String name, DockerClient client, GenericContainer<?> container, int clientPort) {
        this.name = name;
        this.client = client;
        this.container = container;
        this.clientPort = clientPort;
    }

    @Override
    public String name() {
        return name;
    }

    /** The container's id, or null before its first start. */
    synchronized String containerId() {
        return container.getContainerId();
    }

    /** The container as Testcontainers made it (to remove it). */
    GenericContainer<?> container() {
        return container;
    }

    /**
     * Creates and starts the container before its first {@link #start()}, which then takes it as its first
     * incarnation: so that a cluster's containers can be started at once (each takes the engine a second or so)
     * while their starts are still told one by one, in node order.
     */
    synchronized void startAhead() {
        if (container.getContainerId() != null) {
            throw new IllegalStateException(name + "'s container exists already");
        }
        container.start();
        startedAhead = true;
    }

    /** Starts a new incarnation: the container started ahead the first time, else a new one of the same container. */
    @Override
    public synchronized void start() {
        if (startedAhead) {
            startedAhead = false;
        } else if (container.getContainerId() == null) {
            container.start();
        } else {
            client.startContainerCmd(container.getContainerId()).exec();
        }
        running = true;
        frozen = false;
        exitCode = null;
        published = publishedClientPort();
    }

    /** Where this process reaches the server's own client port now (the engine's host, the published port). */
    synchronized InetSocketAddress published() {
        if (published == null) {
            throw new IllegalStateException(name + " has not been started");
        }
        return new InetSocketAddress(published.getHostString(), published.getPort());
    }

    private InetSocketAddress publishedClientPort() {
        InspectContainerResponse info = client.inspectContainerCmd(container.getContainerId()).exec();
        Ports.Binding[] b = info.getNetworkSettings().getPorts().getBindings().get(ExposedPort.tcp(clientPort));
        if (b == null || b.length == 0) {
            throw new IllegalStateException(name + ": the engine published no port for " + clientPort);
        }
        return InetSocketAddress.createUnresolved(container.getHost(), Integer.parseInt(b[0].getHostPortSpec()));
    }

    /** The pid of the server on the engine's host, or -1 when none runs. */
    @Override
    public synchronized long pid() {
        if (!alive()) {
            return -1;
        }
        try {
            Long pid = inspect().getPidLong();
            return pid == null || pid == 0 ? -1 : pid;
        } catch (RuntimeException e) {
            return -1;
        }
    }

    @Override
    public synchronized boolean alive() {
        if (!running) {
            return false;
        }
        InspectContainerResponse.ContainerState s;
        try {
            s = inspect();
        } catch (RuntimeException e) {
            LOG.debug("inspecting {}: {}", name, e.toString());
            return true; // the engine does not answer now: as last seen
        }
        if (Boolean.TRUE.equals(s.getRunning())) {
            return true;
        }
        running = false;
        frozen = false;
        Long code = s.getExitCodeLong();
        exitCode = code == null ? null : code.intValue();
        return false;
    }

    private InspectContainerResponse.ContainerState inspect() {
        return client.inspectContainerCmd(container.getContainerId()).exec().getState();
    }

    @Override
    public synchronized void signal(Signal signal) {
        if (!alive()) {
            signal.toEnded(name); // it ended meanwhile: gone, as KILL and TERM ask
            return;
        }
        String id = container.getContainerId();
        switch (signal) {
            case KILL, TERM -> {
                try {
                    client.killContainerCmd(id).withSignal(signal.name()).exec();
                } catch (ConflictException | NotFoundException e) {
                    if (alive()) {
                        throw new IllegalStateException("cannot send SIG" + signal + " to " + name + ": "
                                + e.getMessage(), e);
                    }
                    return; // it has just ended: gone, as asked
                }
                if (signal == Signal.KILL && frozen) {
                    // SIGKILL goes to a frozen process too; it dies once thawed, so thaw after sending it
                    try {
                        client.unpauseContainerCmd(id).exec();
                    } catch (RuntimeException e) {
                        LOG.debug("unpausing killed {}: {}", name, e.toString());
                    }
                    frozen = false;
                }
            }
            case STOP -> {
                client.pauseContainerCmd(id).exec();
                frozen = true;
            }
            case CONT -> {
                client.unpauseContainerCmd(id).exec();
                frozen = false;
            }
            default -> throw new IllegalArgumentException("cannot send " + signal + " to a container");
        }
    }

    /** Waits for the container to stop (the engine's wait), then reads whether it runs. */
    @Override
    public boolean awaitExit(Duration bound) throws InterruptedException {
        String id = containerId();
        if (id == null) {
            return true;
        }
        try {
            client.waitContainerCmd(id).exec(new WaitContainerResultCallback())
                    .awaitStatusCode(Math.max(1, bound.toMillis()), TimeUnit.MILLISECONDS);
        } catch (RuntimeException e) {
            if (Thread.interrupted()) {
                throw new InterruptedException(name + ": interrupted waiting for its container to stop");
            }
            LOG.debug("waiting for {} to stop: {}", name, e.toString());
        }
        return !alive();
    }

    @Override
    public synchronized Integer exitCode() {
        alive(); // an end not yet seen is recorded now
        return running ? null : exitCode;
    }

    /** The last lines of the container's log, asked of the engine, or why they cannot be read. */
    @Override
    public String logTail(int lines) {
        String id = containerId();
        if (id == null) {
            return "(no log: " + name + " was never started)";
        }
        try {
            return logs(client, id, lines);
        } catch (RuntimeException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    /** The container's whole log (every incarnation). */
    String log() {
        return logs(client, containerId(), -1);
    }

    /** A container's log, its last {@code tail} lines ({@code -1}: all), stdout and stderr as they came. */
    static String logs(DockerClient client, String containerId, int tail) {
        StringBuilder out = new StringBuilder();
        var cmd = client.logContainerCmd(containerId).withStdOut(true).withStdErr(true);
        if (tail >= 0) {
            cmd.withTail(tail);
        }
        try {
            cmd.exec(new ResultCallback.Adapter<Frame>() {
                @Override
                public void onNext(Frame frame) {
                    synchronized (out) {
                        out.append(new String(frame.getPayload(), StandardCharsets.UTF_8));
                    }
                }
            }).awaitCompletion(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (out) {
            return out.toString();
        }
    }
}
