package io.zkchaos.results;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * A run directory's {@code config.json}: what its history came from, written when the directory is made and read
 * back by the report with these same types. A run writes {@link RunSettings}; {@code check --report} (and anything
 * else that checks a history it did not record) writes {@link CheckSettings}. {@code "command"} tells which
 * ({@code run} or {@code check}); a run's file written before it had one is a run's.
 *
 * <p>These types live here, not with the harness's {@code RunConfig}, because the report (this module) must read
 * them and depends only on the checkers: the harness fills them from its own types and writes them.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "command",
        defaultImpl = RunSettings.class)
@JsonSubTypes({
    @JsonSubTypes.Type(value = RunSettings.class, name = "run"),
    @JsonSubTypes.Type(value = CheckSettings.class, name = "check")
})
public sealed interface ConfigFile permits RunSettings, CheckSettings {

    /** What the report calls the history: the scenario of a run, the file a check read. */
    String title();
}
