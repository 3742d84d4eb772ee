package io.zkchaos.harness.cluster.ssh;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.apache.sshd.client.channel.ChannelDirectTcpip;
import org.apache.sshd.client.channel.ChannelExec;
import org.apache.sshd.client.channel.ClientChannelEvent;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.util.net.SshdSocketAddress;

/**
 * One host of an ensemble, reached over one SSH connection ({@link SshHosts#connect}): commands run there, files
 * written there, processes started there, and TCP connections opened from there (the harness asks its servers
 * {@code srvr} through the host itself, so that no fault made on the host's network cuts the harness off).
 *
 * <p>Thread-safe. At most {@value #CHANNELS} commands run on the connection at once (OpenSSH's {@code MaxSessions} is
 * 10 by default; the processes' own channels are counted apart).
 */
public final class HostSession implements AutoCloseable {

    /** How many commands may run at once on one connection. */
    static final int CHANNELS = 6;
    /** How long a plain command may take. */
    static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(60);

    private final String node;
    private final SshHost host;
    private final String address;
    private final ClientSession session;
    private final boolean sudo;
    private final Semaphore channels = new Semaphore(CHANNELS);

    HostSession(String node, SshHost host, String address, ClientSession session, boolean sudo) {
        this.node = node;
        this.host = host;
        this.address = address;
        this.session = session;
        this.sudo = sudo;
    }

    /** The node this host runs ({@code n1}). */
    public String node() {
        return node;
    }

    /** The host as the hosts file names it. */
    public SshHost host() {
        return host;
    }

    /** The address its servers bind and everyone reaches them at. */
    public String address() {
        return address;
    }

    /** {@code n1 (host-a)}, for errors and logs. */
    public String describe() {
        return node + " (" + host.name() + (host.name().equals(address) ? "" : ", " + address) + ")";
    }

    /** What a command printed and how it ended. */
    public record Result(String command, int exit, String out, String err) {

        public boolean ok() {
            return exit == 0;
        }

        /** The output's sections: the lines after each {@code == name} line, by name, in order. */
        public Map<String, List<String>> sections() {
            Map<String, List<String>> out = new LinkedHashMap<>();
            List<String> current = null;
            for (String line : out().split("\n")) {
                if (line.startsWith("== ")) {
                    current = out.computeIfAbsent(line.substring(3).trim(), k -> new ArrayList<>());
                } else if (current != null && !line.isBlank()) {
                    current.add(line);
                }
            }
            return out;
        }

        /**
         * This result, when the command succeeded.
         *
         * @throws IllegalStateException naming {@code what}, the host, the exit code and what it printed otherwise
         */
        public Result require(HostSession on, String what) {
            if (!ok()) {
                throw new IllegalStateException(what + " failed on " + on.describe() + " (exit " + exit + "): "
                        + (err.isBlank() ? out.strip() : err.strip()) + " [" + command + "]");
            }
            return this;
        }
    }

    /** Runs {@code command} in the login shell of the host, with no input. */
    public Result exec(String command) {
        return exec(command, new byte[0], COMMAND_TIMEOUT);
    }

    /** {@code command} as it runs as root: through {@code sudo -n} when the settings ask for it. */
    public String asRoot(String command) {
        return sudo ? "sudo -n sh -c " + Shell.quote(command) : command;
    }

    /** Runs {@code command} as root: through {@code sudo -n} when the settings ask for it. */
    public Result execPrivileged(String command) {
        return exec(asRoot(command));
    }

    /** Runs {@code command} as root with {@code input} on its stdin. */
    public Result execPrivileged(String command, byte[] input) {
        return exec(asRoot(command), input, COMMAND_TIMEOUT);
    }

    /**
     * Runs {@code command} with {@code input} on its stdin (then end of file) and waits up to {@code timeout} for it
     * to end.
     *
     * @throws IllegalStateException naming the host and the command when it cannot be run or does not end in time
     */
    public Result exec(String command, byte[] input, Duration timeout) {
        acquire();
        try (ChannelExec channel = session.createExecChannel(command)) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            channel.setOut(out);
            channel.setErr(err);
            channel.open().verify(timeout);
            try (OutputStream in = channel.getInvertedIn()) { // closing it sends end of file
                in.write(input);
            } catch (org.apache.sshd.common.channel.exception.SshChannelClosedException e) {
                // A command given no input can end, and the host close its channel, before its end of file is sent
                // (seen with a fast 'cat FILE': "write(...) len=0 - channel already closed"): its status and output
                // have come all the same. A command that was given input must have read it: that is an error.
                if (input.length > 0) {
                    throw e;
                }
            }
            Set<ClientChannelEvent> events = channel.waitFor(EnumSet.of(ClientChannelEvent.CLOSED), timeout);
            if (events.contains(ClientChannelEvent.TIMEOUT)) {
                throw new IllegalStateException("'" + command + "' did not end within " + timeout.toSeconds()
                        + " s on " + describe());
            }
            Integer exit = channel.getExitStatus();
            String signal = channel.getExitSignal();
            return new Result(command, exit != null ? exit : signal != null ? Signals.exitCode(signal) : -1,
                    out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException("cannot run '" + command + "' on " + describe() + ": " + e.getMessage(), e);
        } finally {
            channels.release();
        }
    }

    /**
     * Writes {@code content} to the file {@code path} of the host, atomically (a temporary file renamed), creating
     * its directory.
     */
    public void write(String path, byte[] content) {
        String dir = path.substring(0, Math.max(1, path.lastIndexOf('/')));
        String part = path + ".part-" + Long.toHexString(System.nanoTime());
        exec("mkdir -p " + Shell.quote(dir) + " && cat > " + Shell.quote(part) + " && mv -f " + Shell.quote(part)
                + " " + Shell.quote(path), content, COMMAND_TIMEOUT).require(this, "writing " + path);
    }

    /**
     * Starts {@code command} on a channel of its own that stays open while it runs: its exit status (or signal) ends
     * the channel. The caller closes it.
     *
     * @param out where the command's stdout goes
     * @param err where its stderr goes
     */
    ChannelExec start(String command, OutputStream out, OutputStream err) throws IOException {
        ChannelExec channel = session.createExecChannel(command);
        channel.setIn(InputStream.nullInputStream());
        channel.setOut(out);
        channel.setErr(err);
        channel.open().verify(COMMAND_TIMEOUT);
        return channel;
    }

    /**
     * Sends {@code request} to {@code port} of this host's address, opened from the host itself (an SSH
     * {@code direct-tcpip} channel: the connection comes from the host's loopback interface, which no fault touches),
     * and returns all it answers until it closes.
     *
     * @throws IOException when it cannot be reached or does not close within {@code timeout}
     */
    public String ask(int port, String request, Duration timeout) throws IOException {
        acquire();
        try (ChannelDirectTcpip channel = session.createDirectTcpipChannel(new SshdSocketAddress("localhost", 0),
                new SshdSocketAddress(address, port))) {
            channel.open().verify(timeout);
            OutputStream to = channel.getInvertedIn();
            to.write(request.getBytes(StandardCharsets.US_ASCII));
            to.flush();
            Set<ClientChannelEvent> events = channel.waitFor(EnumSet.of(ClientChannelEvent.CLOSED,
                    ClientChannelEvent.EOF), timeout);
            if (events.contains(ClientChannelEvent.TIMEOUT)) {
                throw new IOException("no answer from " + address + ":" + port + " within " + timeout.toMillis()
                        + " ms (asked on " + describe() + ")");
            }
            InputStream from = channel.getInvertedOut();
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            byte[] buf = new byte[4096];
            while (from.available() > 0) {
                int n = from.read(buf);
                if (n < 0) {
                    break;
                }
                answer.write(buf, 0, n);
            }
            return answer.toString(StandardCharsets.UTF_8);
        } finally {
            channels.release();
        }
    }

    private void acquire() {
        try {
            if (!channels.tryAcquire(COMMAND_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                throw new IllegalStateException("no free SSH channel to " + describe() + " within "
                        + COMMAND_TIMEOUT.toSeconds() + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for an SSH channel to " + describe(), e);
        }
    }

    /** Whether the connection is open. */
    public boolean open() {
        return session.isOpen();
    }

    @Override
    public void close() {
        try {
            session.close(false).await(Duration.ofSeconds(5));
        } catch (IOException e) {
            // closing: nothing more to do
        }
    }
}
