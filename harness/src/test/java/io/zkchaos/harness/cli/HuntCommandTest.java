package io.zkchaos.harness.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.harness.hunt.HuntRow;
import io.zkchaos.harness.run.config.RunConfig;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The built-in rows of {@code bench hunt} are the blind table of docs/findings.md: each a run that can be made. */
class HuntCommandTest {

    @Test
    void everyBuiltInRowIsARunConfigurationOfGeneralFaultsOnTheTablesReleases() {
        List<HuntRow> rows = HuntRow.parse(HuntCommand.defaultRows(), "the built-in rows");
        assertThat(rows).isNotEmpty();
        for (HuntRow row : rows) {
            RunConfig c = RunCommand.configOf(row.argsFor(1, Path.of("target/hunt-rows")));
            // blind: the seeded mixed nemesis or a single general fault, never a schedule aimed at a moment
            assertThat(c.nemesis().schedule()).as(row.label()).isNull();
            assertThat(c.nemesisDescriptor().faults()).as(row.label()).isNotEmpty();
        }
        Set<String> releases = rows.stream().map(r -> RunCommand.configOf(r.argsFor(1, Path.of("target/h")))
                .cluster().zookeeper().text()).collect(Collectors.toSet());
        assertThat(releases).contains("3.4.14", "3.5.10", "3.6.4", "3.8.4", "3.9.5");
    }
}
