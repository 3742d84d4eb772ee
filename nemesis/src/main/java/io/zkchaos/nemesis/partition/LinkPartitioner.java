package io.zkchaos.nemesis.partition;

import io.zkchaos.nemesis.net.CutMode;
import io.zkchaos.nemesis.net.Link;
import io.zkchaos.nemesis.net.Stream;
import io.zkchaos.nemesis.net.Toxic;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;

/**
 * Enforces {@link Partition}s on the links between nodes, and undoes exactly what it did.
 *
 * <p>A TCP link opened by node {@code a} to node {@code b} carries {@code a}'s bytes to {@code b} on its upstream
 * stream and {@code b}'s bytes to {@code a} on its downstream stream. For a grudge pair {@code (from, to)} ("to must
 * not hear from") the partitioner stops the stream that carries {@code from}'s bytes to {@code to}, on every link
 * between them: when both directions of a pair are cut (every symmetric grudge) the whole link is cut with the
 * configured {@link CutMode}; when only one is (the majorities ring on 3 nodes), that one stream is black-holed
 * with a {@code timeout} toxic, whatever the mode, because a listening port cannot refuse one direction only.
 *
 * <p>Not thread-safe: one nemesis drives it. Other toxics on the links (latency, …) are left alone.
 */
public final class LinkPartitioner {

    /** Says which links carry the connections that node {@code client} opens to node {@code server}. */
    @FunctionalInterface
    public interface LinkMap {
        /** For ZooKeeper servers: the quorum and election links client→server; may be empty, never null. */
        List<Link> linksFrom(String client, String server);
    }

    /**
     * What was cut on one link.
     *
     * @param link       the link's name
     * @param upstream   whether its upstream stream (client's bytes to the server) is cut
     * @param downstream whether its downstream stream is cut
     */
    public record LinkCut(String link, boolean upstream, boolean downstream) {
    }

    /** Names of the toxics a one-way cut adds. */
    public static final String ONE_WAY_UPSTREAM = "partition_upstream";
    public static final String ONE_WAY_DOWNSTREAM = "partition_downstream";

    private final LinkMap links;
    private final CutMode mode;
    private final Map<Link, LinkCut> applied = new LinkedHashMap<>();

    public LinkPartitioner(LinkMap links, CutMode mode) {
        this.links = Objects.requireNonNull(links, "links");
        this.mode = Objects.requireNonNull(mode, "mode");
    }

    /**
     * Heals what the previous partition cut, then cuts what {@code partition} demands.
     *
     * @return what was cut, link by link, in the order applied (empty for a heal)
     */
    public List<LinkCut> apply(Partition partition) {
        heal();
        SortedSet<DirectedPair> pairs = partition.cutPairs();
        List<String> nodes = List.copyOf(partition.nodes());
        List<LinkCut> cuts = new ArrayList<>();
        for (String client : nodes) {
            for (String server : nodes) {
                if (client.equals(server)) {
                    continue;
                }
                boolean up = pairs.contains(new DirectedPair(client, server));
                boolean down = pairs.contains(new DirectedPair(server, client));
                if (!up && !down) {
                    continue;
                }
                for (Link link : Objects.requireNonNull(links.linksFrom(client, server), "linksFrom returned null")) {
                    cut(link, up, down);
                    LinkCut c = new LinkCut(link.name(), up, down);
                    applied.put(link, c);
                    cuts.add(c);
                }
            }
        }
        return List.copyOf(cuts);
    }

    private void cut(Link link, boolean up, boolean down) {
        if (up && down) {
            link.cut(mode);
        } else if (up) {
            link.addToxic(Toxic.timeout(ONE_WAY_UPSTREAM, Stream.UPSTREAM, 0));
        } else {
            link.addToxic(Toxic.timeout(ONE_WAY_DOWNSTREAM, Stream.DOWNSTREAM, 0));
        }
    }

    /** Undoes every cut this partitioner made; other toxics stay. */
    public void heal() {
        for (Map.Entry<Link, LinkCut> e : applied.entrySet()) {
            Link link = e.getKey();
            LinkCut c = e.getValue();
            if (c.upstream() && c.downstream()) {
                if (mode == CutMode.REFUSE) {
                    link.setEnabled(true);
                } else {
                    link.removeToxic(Link.BLACKHOLE_UPSTREAM);
                    link.removeToxic(Link.BLACKHOLE_DOWNSTREAM);
                }
            } else {
                link.removeToxic(c.upstream() ? ONE_WAY_UPSTREAM : ONE_WAY_DOWNSTREAM);
            }
        }
        applied.clear();
    }

    /** What is cut now. */
    public List<LinkCut> current() {
        return List.copyOf(applied.values());
    }
}
