package io.zkchaos.junit.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.harness.run.config.ClusterPart;
import io.zkchaos.harness.run.config.RunConfig;
import io.zkchaos.harness.run.config.Timing;
import io.zkchaos.harness.run.config.WorkloadPart;
import io.zkchaos.junit.ChaosTest;
import io.zkchaos.junit.ZkChaos;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChaosSettingsTest {

    @ZkChaos(nodes = 5, zookeeper = "3.8.4", store = "target/elsewhere")
    static final class Annotated {
        @ChaosTest(nemesis = "kill-leader", time = "20s", recover = "3s", concurrency = 7, model = "cas-register",
                init = "0", seed = "42", checkers = {"linearizable", "zk-read-model"})
        void counterIsLinearizable() {
        }

        @ChaosTest(time = "20s", faultFor = "6s", healFor = "2s", model = "register", name = "my-register")
        void named() {
        }

        @ChaosTest
        void noModel() {
        }

        @ChaosTest(time = "soon", model = "register")
        void badTime() {
        }

        @ChaosTest(nemesis = "kill-leader", time = "2m", sessionTimeout = "5s", model = "register")
        void longFaults() {
        }

        @ChaosTest(openTimeout = "3s", model = "register")
        void shortOpenTimeout() {
        }

        @ChaosTest(openTimeout = "0s", model = "register")
        void zeroOpenTimeout() {
        }

        @ChaosTest(nemesis = "mixed", compose = 3, model = "register")
        void composed() {
        }

        @ChaosTest(nemesis = "kill-leader", compose = 2, model = "register")
        void composedOfOneFamily() {
        }

        @ChaosTest(nemesis = "gremlins", model = "register")
        void badNemesis() {
        }

        @ChaosTest(checkers = "psychic", model = "register")
        void badChecker() {
        }
    }

    private static ChaosSettings settings(String method) throws Exception {
        Method m = Annotated.class.getDeclaredMethod(method);
        return ChaosSettings.of(Annotated.class.getAnnotation(ZkChaos.class), m.getAnnotation(ChaosTest.class), m);
    }

    @Test
    void theAnnotationsBecomeTheRunConfiguration() throws Exception {
        ChaosSettings s = settings("counterIsLinearizable");
        RunConfig c = s.config();
        assertThat(c.cluster().nodes()).isEqualTo(5);
        assertThat(c.cluster().zookeeper().text()).isEqualTo("3.8.4");
        assertThat(c.cluster().backend()).isEqualTo(ClusterPart.defaults().backend());
        assertThat(c.out()).isEqualTo("target/elsewhere");
        assertThat(c.workload().name()).isEqualTo("counter-is-linearizable");
        assertThat(c.scenario()).isEqualTo("counter-is-linearizable-kill-leader");
        assertThat(c.workload().concurrency()).isEqualTo(7);
        assertThat(c.nemesis().name()).isEqualTo("kill-leader");
        assertThat(c.timing().timeLimit()).isEqualTo(Duration.ofSeconds(20));
        assertThat(c.timing().recover()).isEqualTo(Duration.ofSeconds(3));
        assertThat(c.nemesis().faultFor()).isEqualTo(Duration.ofSeconds(5)); // a quarter of the time
        assertThat(c.nemesis().healFor()).isEqualTo(Duration.ofSeconds(4)); // a fifth
        assertThat(c.checks().model()).isEqualTo("cas-register");
        assertThat(c.checks().init()).isEqualTo(0L);
        assertThat(c.seed()).isEqualTo(42L);
        assertThat(s.checkers()).containsExactly("linearizable", "zk-read-model");
        assertThat(s.failOnUnknown()).isTrue();
    }

    @Test
    void whatIsNotAnnotatedComesFromTheHarnessDefaults() throws Exception {
        RunConfig c = settings("named").config();
        assertThat(c.workload().name()).isEqualTo("my-register");
        assertThat(c.nemesis().name()).isEqualTo("none");
        assertThat(c.nemesis().faultFor()).isEqualTo(Duration.ofSeconds(6));
        assertThat(c.nemesis().healFor()).isEqualTo(Duration.ofSeconds(2));
        assertThat(c.timing().recover()).isEqualTo(Timing.defaults().recover());
        assertThat(c.workload().concurrency()).isEqualTo(WorkloadPart.defaults().concurrency());
        assertThat(c.workload().sessionTimeout()).isEqualTo(WorkloadPart.defaults().sessionTimeout());
        assertThat(c.checks().failoverBound()).isEqualTo(RunConfig.defaultChecks().failoverBound());
    }

    @Test
    void theOpenTimeoutIsAtLeast30sAndOutlastsAFaultByThreeSessionTimeouts() throws Exception {
        // the defaults: a 30 s main phase, faults held 7.5 s, 4 s sessions: 7.5 + 12 s is under the least, 30 s
        assertThat(settings("counterIsLinearizable").openTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(settings("named").openTimeout()).isEqualTo(Duration.ofSeconds(30)); // no fault at all
        // faults held a quarter of 2 minutes: 30 s, then three 5 s sessions
        assertThat(settings("longFaults").openTimeout()).isEqualTo(Duration.ofSeconds(45));
        assertThat(settings("shortOpenTimeout").openTimeout()).isEqualTo(Duration.ofSeconds(3));
        assertThatThrownBy(() -> settings("zeroOpenTimeout")).hasMessageContaining("@ChaosTest(openTimeout = \"0s\")")
                .hasMessageContaining("must be positive");
    }

    @Test
    void errorsNameTheAttribute() {
        assertThatThrownBy(() -> settings("noModel")).hasMessageContaining("@ChaosTest(checkers = \"linearizable\")")
                .hasMessageContaining("model = ...");
        assertThatThrownBy(() -> settings("badTime")).hasMessageContaining("@ChaosTest(time = \"soon\")");
        assertThatThrownBy(() -> settings("badNemesis")).hasMessageContaining("unknown nemesis 'gremlins'");
        assertThatThrownBy(() -> settings("badChecker")).hasMessageContaining("unknown checker 'psychic'");
        assertThatThrownBy(() -> settings("composedOfOneFamily")).hasMessageContaining("--compose 2")
                .hasMessageContaining("1 family (crash)");
    }

    @Test
    void composeHoldsSeveralFaultsAtOnce() throws Exception {
        assertThat(settings("composed").config().nemesis().compose()).isEqualTo(3);
        assertThat(settings("named").config().nemesis().compose()).isEqualTo(1);
    }

    @Test
    void methodNamesBecomeWorkloadNames() {
        assertThat(ChaosSettings.kebab("counterIsLinearizable")).isEqualTo("counter-is-linearizable");
        assertThat(ChaosSettings.kebab("lock_under_HALVES")).isEqualTo("lock-under-halves");
        assertThat(List.of(ChaosSettings.kebab("a1B"))).containsExactly("a1-b");
    }
}
