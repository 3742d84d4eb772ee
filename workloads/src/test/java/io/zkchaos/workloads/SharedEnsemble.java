package io.zkchaos.workloads;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One {@link Ensemble} shared by every test of a class: started before the first test, closed (servers stopped,
 * data dirs deleted) after the last. Register it as
 * {@code @RegisterExtension static final SharedEnsemble ensemble = new SharedEnsemble(3);} and use
 * {@code ensemble.get()} in tests.
 */
public final class SharedEnsemble implements BeforeAllCallback, AfterAllCallback {

    private final int size;
    private Ensemble ensemble;

    /** @param size the number of servers */
    public SharedEnsemble(int size) {
        this.size = size;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        ensemble = new Ensemble(size);
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        if (ensemble != null) {
            ensemble.close();
            ensemble = null;
        }
    }

    /** The running ensemble; only between the class's first and last test. */
    public Ensemble get() {
        if (ensemble == null) {
            throw new IllegalStateException("the shared ensemble runs only while the test class's tests run");
        }
        return ensemble;
    }
}
