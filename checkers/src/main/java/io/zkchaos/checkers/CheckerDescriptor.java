package io.zkchaos.checkers;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * A checker by the name the CLI takes: what it decides, which {@link CheckerOption}s it reads, and how to make it.
 * The single source for {@code check --checker}, the runs' checks and the docs.
 *
 * @param name        e.g. {@code single-leader}
 * @param description one line: what it decides
 * @param options     the settings it reads; others given to it are an error at the CLI
 * @param factory     makes the checker from the settings
 */
public record CheckerDescriptor(String name, String description, Set<CheckerOption> options,
                                Function<CheckerOptions, Checker> factory) {

    public CheckerDescriptor {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        options = Collections.unmodifiableSet(options.isEmpty() ? EnumSet.noneOf(CheckerOption.class)
                : EnumSet.copyOf(options));
        Objects.requireNonNull(factory, "factory");
    }

    /**
     * Makes the checker.
     *
     * @throws IllegalArgumentException when the settings do not suit it (the linearizable checker without a model)
     */
    public Checker create(CheckerOptions settings) {
        return factory.apply(settings);
    }
}
