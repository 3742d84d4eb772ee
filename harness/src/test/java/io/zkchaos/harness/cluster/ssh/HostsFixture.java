package io.zkchaos.harness.cluster.ssh;

import io.zkchaos.harness.testing.Prerequisites;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Namespace hosts for a whole test class: {@code @RegisterExtension static final HostsFixture HOSTS = new
 * HostsFixture(5);}. The class is skipped, saying why, where they cannot be made (not root, no sshd: see
 * {@link NamespaceHosts#unavailable()}), and fails then under {@code CI=true} ({@link Prerequisites}); they are made
 * before the class's first test and removed, with their files, after its last, whatever happened.
 */
final class HostsFixture implements ExecutionCondition, BeforeAllCallback, AfterAllCallback {

    private final ExecutionCondition prerequisite = Prerequisites.forClass("network namespaces with sshd",
            NamespaceHosts::unavailable);
    private final int count;
    private Path dir;
    private NamespaceHosts hosts;

    HostsFixture(int count) {
        this.count = count;
    }

    /** The hosts, made for the running class. */
    NamespaceHosts hosts() {
        if (hosts == null) {
            throw new IllegalStateException("the namespace hosts are made before the class's first test only");
        }
        return hosts;
    }

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        return prerequisite.evaluateExecutionCondition(context);
    }

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        dir = Files.createTempDirectory("zkchaos-hosts");
        hosts = NamespaceHosts.create(count, dir);
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        try {
            if (hosts != null) {
                hosts.close();
            }
        } finally {
            hosts = null;
            Files.deleteIfExists(dir); // empty once the hosts removed their own directory
        }
    }
}
