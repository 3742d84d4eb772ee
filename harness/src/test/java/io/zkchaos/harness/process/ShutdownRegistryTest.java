package io.zkchaos.harness.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ShutdownRegistryTest {

    private final List<String> closed = new ArrayList<>();

    /** A resource that records its close and then, if told to, fails. */
    private AutoCloseable resource(String name, boolean fails) {
        return new AutoCloseable() {
            @Override
            public void close() {
                closed.add(name);
                if (fails) {
                    throw new IllegalStateException(name + " failed to close");
                }
            }

            @Override
            public String toString() {
                return name;
            }
        };
    }

    @Test
    void closesWhatIsStillOpenNewestFirstAndGoesOnPastAFailure() {
        ShutdownRegistry registry = new ShutdownRegistry();
        AutoCloseable cluster = resource("cluster", false);
        AutoCloseable closedEarlier = resource("closed earlier", false);
        AutoCloseable clients = resource("clients", true);
        registry.add(cluster);
        registry.add(closedEarlier);
        registry.add(clients);
        registry.remove(closedEarlier);

        registry.closeAll();

        assertThat(closed).containsExactly("clients", "cluster");
        assertThat(registry.open()).isEmpty();
    }
}
