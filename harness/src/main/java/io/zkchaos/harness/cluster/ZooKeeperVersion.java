package io.zkchaos.harness.cluster;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A ZooKeeper release number ({@code 3.4.14}, {@code 3.5.3-beta}) and what that release understands, where the
 * harness must write other settings for older servers. Facts from the sources of each release line (tags
 * {@code release-3.4.x} .. {@code release-3.9.x}).
 *
 * @param major  3
 * @param minor  4 .. 9
 * @param patch  the patch number
 * @param text   as given (trimmed): what the resolver, the docker images and {@code config.json} name it by
 */
public record ZooKeeperVersion(int major, int minor, int patch, @JsonValue String text)
        implements Comparable<ZooKeeperVersion> {

    private static final Pattern FORM = Pattern.compile("(\\d+)\\.(\\d+)\\.(\\d+)([-.].*)?");

    /** The release the harness tests unless told otherwise ({@code --zookeeper}): the one default. */
    public static final ZooKeeperVersion DEFAULT = of("3.9.5");

    /**
     * The release {@code text} names, checked: the one check of a version's text, where a configuration takes it in
     * ({@code config.json} reads it through here).
     *
     * @throws IllegalArgumentException naming the text when it is not {@code X.Y.Z[-qualifier]}
     */
    @JsonCreator
    public static ZooKeeperVersion of(String text) {
        return of("version", text);
    }

    /**
     * As {@link #of(String)}, the message naming {@code field} as the caller's input spells it ({@code zookeeper}
     * for the CLI's {@code --zookeeper}).
     *
     * @throws IllegalArgumentException {@code "<field>: must be a ZooKeeper version such as 3.9.5, got '<text>'"}
     */
    public static ZooKeeperVersion of(String field, String text) {
        return parse(text).orElseThrow(() -> new IllegalArgumentException(field + ": must be a ZooKeeper version "
                + "such as 3.9.5 (X.Y.Z, optionally -qualifier), got " + (text == null ? "null" : "'" + text + "'")));
    }

    /** The release number of {@code text}; empty when it does not have the form {@code X.Y.Z[-qualifier]}. */
    public static Optional<ZooKeeperVersion> parse(String text) {
        Matcher m = FORM.matcher(text == null ? "" : text.trim());
        if (!m.matches()) {
            return Optional.empty();
        }
        return Optional.of(new ZooKeeperVersion(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                Integer.parseInt(m.group(3)), text.trim()));
    }

    /** Whether this release is {@code major.minor.patch} or later. */
    public boolean atLeast(int major, int minor, int patch) {
        return compareTo(new ZooKeeperVersion(major, minor, patch, "")) >= 0;
    }

    @Override
    public int compareTo(ZooKeeperVersion o) {
        int c = Integer.compare(major, o.major);
        if (c == 0) {
            c = Integer.compare(minor, o.minor);
        }
        return c != 0 ? c : Integer.compare(patch, o.patch);
    }

    /**
     * {@code quorumListenOnAllIPs} (3.4.6): before it a server binds its election and quorum ports on every address
     * of the machine, so no proxy can listen on those port numbers on another loopback address.
     */
    public boolean bindsOwnAddressOnly() {
        return atLeast(3, 4, 6);
    }

    /** {@code standaloneEnabled}, {@code admin.enableServer}: 3.5.0. */
    public boolean hasStandaloneSwitch() {
        return atLeast(3, 5, 0);
    }

    /** {@code reconfigEnabled}: 3.5.3 (3.5.0 to 3.5.2 always write a dynamic configuration file). */
    public boolean hasReconfigSwitch() {
        return atLeast(3, 5, 3);
    }

    /** {@code multiAddress.enabled}: 3.6.0. */
    public boolean hasMultiAddress() {
        return atLeast(3, 6, 0);
    }

    /**
     * {@code zookeeper.forceSnapshotSync} honoured (the leader syncs every learner by SNAP): 3.5.5. The property is
     * declared from 3.5.0, but {@code LearnerHandler} reads it only from 3.5.5: on 3.5.4-beta a run with it set saw
     * DIFF syncs only.
     */
    public boolean hasForcedSnapshotSync() {
        return atLeast(3, 5, 5);
    }

    /** {@code zookeeper.snapshotSizeFactor} read from a system property (sync from the on-disk log): 3.5.4. */
    public boolean hasSnapshotSizeFactor() {
        return atLeast(3, 5, 4);
    }

    @Override
    public String toString() {
        return text;
    }
}
