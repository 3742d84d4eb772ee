package io.zkchaos.harness.cluster.ssh;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The shell commands a node's host runs for the faults on the node's process and files, as data (so that they are
 * tested by running them): a server started with an environment of its own, and its data directory emptied.
 */
final class NodeCommands {

    /** The file in a ZooKeeper server's data directory that names it in the ensemble; kept when the rest goes. */
    static final String MYID = "myid";

    private NodeCommands() {
    }

    /**
     * {@code command} run with {@code environment} added to the host's: {@code env K=V ... java ...}. {@code env}
     * replaces itself with the command, so the pid the shell printed stays the server's and its command line (what
     * {@link HostReaper} reads) is the command's own.
     */
    static List<String> withEnvironment(Map<String, String> environment, List<String> command) {
        if (environment.isEmpty()) {
            return command;
        }
        List<String> words = new ArrayList<>();
        words.add("env");
        environment.forEach((k, v) -> words.add(k + "=" + v));
        words.addAll(command);
        return List.copyOf(words);
    }

    /**
     * Removes everything in {@code dataDirectory} but its {@value #MYID}: what an operator who re-imaged the host
     * leaves. Fails (a non-zero exit) when the directory is missing or something cannot be removed. {@code -prune}
     * keeps {@code find} at the directory's own entries, where POSIX {@code find} has no {@code -maxdepth}.
     */
    static String emptyData(String dataDirectory) {
        return "cd " + Shell.quote(dataDirectory) + " && find . ! -name . -prune ! -name " + MYID
                + " -exec rm -rf -- {} +";
    }
}
