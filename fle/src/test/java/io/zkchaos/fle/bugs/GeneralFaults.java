package io.zkchaos.fle.bugs;

import io.zkchaos.fle.Bug;
import io.zkchaos.fle.Bugs;
import io.zkchaos.fle.sim.SimCluster;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A seeded run of general faults on a simulated group of 3 with writes going on: every 10 ms a put to a random serving
 * server; in turn, healthy for 1-3 s, then one fault on a server chosen at random — a crash (restarted at the heal)
 * or an isolation from the others (healed) — held 0.5-3 s. Nothing in it is shaped to a bug flag. At each heal, a
 * server that is down for any reason (crashed by the run or ended by itself) is started again, as a supervisor would.
 */
final class GeneralFaults {

    /** What a run did: its cluster (settled: every server up and serving, if it could) and its faults. */
    record Run(SimCluster cluster, int faults, boolean settled) {

        Map<Bug, Long> bugPaths() {
            return cluster.bugPaths();
        }

        /** The times a server left its role on an exception. */
        List<SimCluster.Looking> exceptions() {
            return cluster.lookings().stream().filter(l -> l.reason().contains("exception when following")).toList();
        }
    }

    private GeneralFaults() {
    }

    static Run run(Bugs bugs, long seed, Duration length) {
        SimCluster c = SimCluster.builder().servers(3).bugs(bugs).build();
        c.startAll();
        c.awaitStable(Duration.ofSeconds(10));
        Random random = new Random(seed);
        List<Long> sids = List.copyOf(c.sids());
        long end = c.clock().now() + length.toMillis();
        int[] n = {0};
        Runnable[] writer = new Runnable[1];
        writer[0] = () -> {
            long sid = sids.get(random.nextInt(sids.size()));
            if (c.running(sid) && c.status(sid).serving()) {
                c.submitPut(sid, "k" + random.nextInt(5), "v" + n[0]++);
            }
            if (c.clock().now() < end) {
                c.clock().at(c.clock().now() + 10, writer[0]);
            }
        };
        c.clock().at(c.clock().now(), writer[0]);
        int faults = 0;
        while (c.clock().now() < end) {
            c.run(Duration.ofMillis(1_000 + random.nextInt(2_000)));
            long victim = sids.get(random.nextInt(sids.size()));
            boolean crash = random.nextBoolean();
            if (crash && c.running(victim)) {
                c.crash(victim);
            } else {
                c.firewall().isolate(victim, sids);
            }
            faults++;
            c.run(Duration.ofMillis(500 + random.nextInt(2_500)));
            c.firewall().heal();
            for (long s : sids) {
                if (!c.running(s)) {
                    c.start(s);
                }
            }
        }
        boolean settled = c.runUntil(c::allServing, Duration.ofSeconds(30));
        return new Run(c, faults, settled);
    }
}
