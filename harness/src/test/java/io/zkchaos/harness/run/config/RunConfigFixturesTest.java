package io.zkchaos.harness.run.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.zkchaos.harness.cluster.ClusterConfig;
import io.zkchaos.harness.cluster.server.ServerFiles;
import io.zkchaos.nemesis.Fault;
import io.zkchaos.results.Json;
import io.zkchaos.results.RunDirectory;
import io.zkchaos.workloads.ZnodeAcls;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Real {@code config.json} files written by earlier runs (copied from run directories of issues 34 and 35, one of
 * each shape: ZooKeeper, fle with bug flags, docker, {@code without}, snapCount and preload, per-client ACLs and
 * churn, the lazy file system) still load, to the run they described, and save back to the same file in the
 * current shape: the one change of shape since is that preload, ACLs and churn are saved under {@code load}, no
 * longer under {@code storage} ({@link #currentShape}; the {@code load} fixture is a file of the current shape, the
 * acls-churn run's with a preload).
 */
class RunConfigFixturesTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            zookeeper-local   | register-isolate-leader;local;ZooKeeper 3.9.5;bugs=none;nodes=3;sync=AUTO;lazyfs=false;clocks=false;maxSession=PT20S;cfg={};faults=isolate-leader;without=[];preload=null;acls=open;churn=0;clients=THREAD;checkers=register
            fle-bugs          | fle+exit-on-trunc-set-isolate-leader;local;fle nodes (bugs: exit-on-trunc);bugs=exit-on-trunc;nodes=3;sync=AUTO;lazyfs=false;clocks=false;maxSession=PT10S;cfg={};faults=isolate-leader;without=[];preload=null;acls=open;churn=0;clients=THREAD;checkers=set
            mixed-without     | register-mixed;local;ZooKeeper 3.9.5;bugs=none;nodes=3;sync=AUTO;lazyfs=false;clocks=false;maxSession=PT20S;cfg={};faults=kill-leader,kill-random,kill-majority,kill-all,pause-leader,pause-random,isolate-leader,isolate-follower,halves,random-halves,bridge,majorities-ring,client-partition,slow-network,restart-random,restart-leader,restart-all,rolling-restart,lagging-follower,replace-disk,crash-subset,crash-restart-crash,cut-during-sync,stall-during-snapshot,crash-during-sync;without=[CLOCK];preload=null;acls=open;churn=0;clients=THREAD;checkers=register
            snapcount-preload | set-replace-disk;local;ZooKeeper 3.9.5;bugs=none;nodes=3;sync=AUTO;lazyfs=false;clocks=false;maxSession=PT20S;cfg={snapCount=100};faults=replace-disk;without=[];preload=2000x4096;acls=open;churn=0;clients=THREAD;checkers=set
            acls-churn        | set-mixed;local;ZooKeeper 3.8.6;bugs=none;nodes=3;sync=AUTO;lazyfs=false;clocks=true;maxSession=PT20S;cfg={snapCount=100};faults=kill-leader,kill-random,kill-majority,kill-all,pause-leader,pause-random,isolate-leader,isolate-follower,halves,random-halves,bridge,majorities-ring,client-partition,slow-network,clock-skew,clock-bump,clock-strobe,restart-random,restart-leader,restart-all,rolling-restart,lagging-follower,replace-disk,crash-subset,crash-restart-crash,cut-during-sync,stall-during-snapshot,crash-during-sync;without=[];preload=null;acls=per-client;churn=4;clients=THREAD;checkers=set
            load              | set-mixed;local;ZooKeeper 3.8.6;bugs=none;nodes=3;sync=AUTO;lazyfs=false;clocks=true;maxSession=PT20S;cfg={snapCount=100};faults=kill-leader,kill-random,kill-majority,kill-all,pause-leader,pause-random,isolate-leader,isolate-follower,halves,random-halves,bridge,majorities-ring,client-partition,slow-network,clock-skew,clock-bump,clock-strobe,restart-random,restart-leader,restart-all,rolling-restart,lagging-follower,replace-disk,crash-subset,crash-restart-crash,cut-during-sync,stall-during-snapshot,crash-during-sync;without=[];preload=500x1024;acls=per-client;churn=4;clients=THREAD;checkers=set
            lazyfs            | set-mixed;local;ZooKeeper 3.9.5;bugs=none;nodes=3;sync=AUTO;lazyfs=true;clocks=true;maxSession=PT20S;cfg={};faults=kill-leader,kill-random,kill-majority,kill-all,pause-leader,pause-random,isolate-leader,isolate-follower,halves,random-halves,bridge,majorities-ring,client-partition,slow-network,clock-skew,clock-bump,clock-strobe,restart-random,restart-leader,restart-all,rolling-restart,lagging-follower,replace-disk,crash-subset,crash-restart-crash,kill-lose-unfsynced,kill-all-lose-unfsynced,kill-tear-unfsynced,kill-all-tear-unfsynced,disk-eio-write,disk-eio-fsync,disk-full,disk-slow-fsync,cut-during-sync,stall-during-snapshot,crash-during-sync;without=[];preload=null;acls=open;churn=0;clients=THREAD;checkers=set
            docker            | register-kill-leader;docker;ZooKeeper 3.9.5;bugs=none;nodes=3;sync=AUTO;lazyfs=false;clocks=false;maxSession=PT20S;cfg={};faults=kill-leader;without=[];preload=null;acls=open;churn=0;clients=THREAD;checkers=register
            """)
    void storedConfigurationsLoadToTheSameRunAndSaveBackUnchanged(String fixture, String fingerprint,
                                                                 @TempDir Path tmp) throws Exception {
        RunDirectory stored = new RunDirectory(fixture(fixture));
        RunConfig loaded = RunConfig.read(stored);
        assertThat(fingerprint(loaded)).as("the run the file describes, as the code before issue 36 read it")
                .isEqualTo(fingerprint.strip());

        JsonNode file = currentShape(Json.MAPPER.readTree(stored.configFile().toFile()));
        JsonNode saved = Json.MAPPER.valueToTree(loaded.saved());
        assertThat(saved).as("saving the loaded run writes the stored file again, field for field").isEqualTo(file);

        RunDirectory again = new RunDirectory(tmp.resolve("run"));
        Files.createDirectories(again.path());
        again.writeConfig(loaded.saved());
        assertThat(RunConfig.read(again)).as("save and read back is stable").isEqualTo(loaded);
        assertThat(Json.MAPPER.readTree(again.configFile().toFile())).isEqualTo(file);
    }

    @Test
    void aFileOfTheOlderShapeReadsAsTheSameFileInTheCurrentShape(@TempDir Path tmp) throws Exception {
        RunDirectory old = new RunDirectory(fixture("acls-churn"));
        JsonNode upgraded = currentShape(Json.MAPPER.readTree(old.configFile().toFile()));
        assertThat(Json.MAPPER.readTree(old.configFile().toFile()).path("storage").has("acls")).isTrue();
        assertThat(upgraded.path("storage").has("acls")).isFalse();
        RunDirectory now = new RunDirectory(tmp.resolve("run"));
        Files.createDirectories(now.path());
        Files.writeString(now.configFile(), Json.MAPPER.writeValueAsString(upgraded));

        RunConfig read = RunConfig.read(old);
        assertThat(RunConfig.read(now)).isEqualTo(read);
        assertThat(read.load()).isEqualTo(new LoadPart(null, ZnodeAcls.PER_CLIENT, 4));
        assertThat(read.storage()).isEqualTo(new StoragePart(false, true, 100));

        ObjectNode both = upgraded.deepCopy();
        ((ObjectNode) both.get("storage")).put("churn", 2);
        Files.writeString(now.configFile(), Json.MAPPER.writeValueAsString(both));
        assertThatThrownBy(() -> RunConfig.read(now)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("config.json").hasMessageContaining("also has under load");
    }

    /**
     * {@code file} as it is saved now: what a file written before {@code load} existed kept of the load under
     * {@code storage} ({@code preload}, {@code acls}, {@code churn}) moved, as it was, under {@code load} (left out
     * when there is none). A file of the current shape is returned as it is.
     */
    static JsonNode currentShape(JsonNode file) {
        ObjectNode upgraded = file.deepCopy();
        if (!(upgraded.get("storage") instanceof ObjectNode storage)) {
            return upgraded;
        }
        ObjectNode load = Json.MAPPER.createObjectNode();
        for (String key : new String[] {"preload", "acls", "churn"}) {
            JsonNode v = storage.remove(key);
            if (v != null) {
                load.set(key, v);
            }
        }
        if (!load.isEmpty()) {
            upgraded.set("load", load);
        }
        return upgraded;
    }

    private static Path fixture(String name) throws URISyntaxException {
        return Path.of(RunConfigFixturesTest.class.getResource("/config-fixtures/" + name + "/config.json").toURI())
                .getParent();
    }

    /** What a run of this configuration does, in the terms every version of the code can state. */
    static String fingerprint(RunConfig c) {
        ClusterConfig cc = c.clusterConfig(null);
        // what the servers' zoo.cfg says beyond the generated settings (typed since issue 36, strings before)
        Map<String, String> zooCfg = new TreeMap<>(ServerFiles.serverSettings(cc.server()));
        zooCfg.putAll(cc.extraServerConfig());
        return String.join(";", c.scenario(), c.cluster().backend().name(), cc.systemSummary(), "bugs=" + cc.bugs(),
                "nodes=" + cc.nodes(), "sync=" + cc.sync(), "lazyfs=" + cc.lazyFs(), "clocks=" + cc.clocks(),
                "maxSession=" + cc.maxSessionTimeout(), "cfg=" + zooCfg,
                "faults=" + c.nemesisDescriptor().faults().stream().map(Fault::name).collect(Collectors.joining(",")),
                "without=" + c.nemesis().without(), "preload=" + c.load().preload(),
                "acls=" + c.load().acls().label(), "churn=" + c.load().churnLanes(),
                "clients=" + c.workload().clients(), "checkers=" + c.workloadDescriptor().name());
    }
}
