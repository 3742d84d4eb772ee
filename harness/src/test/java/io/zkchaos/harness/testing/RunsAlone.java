package io.zkchaos.harness.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * An integration test that must not share the machine with another: it makes orphans on purpose (a killed harness,
 * whose leftovers the next start must be the one to reap, not a neighbour's sweep), or holds what is one per machine
 * (the Docker engine's containers and networks, the ssh hosts' namespaces, bridge and firewall). The build runs the
 * other integration tests two JVMs at a time and these afterwards, one at a time (harness/pom.xml, group
 * {@value #TAG}).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag(RunsAlone.TAG)
public @interface RunsAlone {
    String TAG = "alone";
}
