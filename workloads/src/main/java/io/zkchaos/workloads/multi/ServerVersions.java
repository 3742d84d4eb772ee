package io.zkchaos.workloads.multi;

import io.zkchaos.workloads.Target;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.zookeeper.client.FourLetterWordMain;

/**
 * What release the servers of a target run, asked through {@code srvr} on each client port (answered by every
 * release, and allowed by the default four-letter-word list of 3.5+). The client library here is always the one the
 * project builds with; what a request may hold depends on the servers.
 */
final class ServerVersions {

    private static final Pattern VERSION = Pattern.compile("Zookeeper version: (\\d+)\\.(\\d+)\\.(\\d+)");

    private ServerVersions() {
    }

    /** A release as {@code [major, minor, patch]} with the text it came from. */
    record Release(int major, int minor, int patch, String server) implements Comparable<Release> {
        boolean atLeast(int ma, int mi, int pa) {
            return compareTo(new Release(ma, mi, pa, "")) >= 0;
        }

        @Override
        public int compareTo(Release o) {
            int c = Integer.compare(major, o.major);
            c = c != 0 ? c : Integer.compare(minor, o.minor);
            return c != 0 ? c : Integer.compare(patch, o.patch);
        }

        @Override
        public String toString() {
            return major + "." + minor + "." + patch;
        }
    }

    /**
     * The oldest release among the servers that answer, or empty when none does (the caller then assumes the
     * least).
     *
     * @param unanswered collects, for each server that did not answer, why
     */
    static Optional<Release> oldest(Target target, List<String> unanswered) {
        List<Release> found = new ArrayList<>();
        for (Map.Entry<String, String> s : target.servers().entrySet()) {
            String hostPort = s.getValue();
            int colon = hostPort.lastIndexOf(':');
            try {
                String answer = FourLetterWordMain.send4LetterWord(hostPort.substring(0, colon),
                        Integer.parseInt(hostPort.substring(colon + 1)), "srvr", false,
                        (int) target.requestTimeout().toMillis());
                Matcher m = VERSION.matcher(answer);
                if (m.find()) {
                    found.add(new Release(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                            Integer.parseInt(m.group(3)), s.getKey()));
                } else {
                    unanswered.add(s.getKey() + ": no version in its srvr answer");
                }
            } catch (Exception e) {
                unanswered.add(s.getKey() + ": " + e.getMessage());
            }
        }
        return found.stream().min(Release::compareTo);
    }
}
