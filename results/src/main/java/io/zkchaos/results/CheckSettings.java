package io.zkchaos.results;

import io.zkchaos.checkers.CheckerOptions;
import java.util.Objects;

/**
 * The {@code config.json} of a history checked without a run ({@code check --report}, a generated history): what was
 * checked, and with what.
 *
 * @param title    what the report calls it (the history file's name)
 * @param history  where the history came from (the file's absolute path, or how it was generated)
 * @param checker  the checker's name
 * @param model    the linearizability model's name, or null
 * @param settings the checker's settings
 */
public record CheckSettings(String title, String history, String checker, String model, CheckerOptions settings)
        implements ConfigFile {

    public CheckSettings {
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(history, "history");
        Objects.requireNonNull(checker, "checker");
    }
}
