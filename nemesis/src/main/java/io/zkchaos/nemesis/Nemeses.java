package io.zkchaos.nemesis;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The nemeses {@code ./zkchaos run --nemesis NAME} takes, in a stable order: {@code none}, one per built-in fault
 * ({@link Faults}), and {@code mixed}, a seeded random sequence of all of them (those that act on the lazy file
 * system, power failures and failing disks, only when the run has it: {@link NemesisDescriptor#forStorage}; those on
 * client processes only when clients run as processes: {@link NemesisDescriptor#forClients}).
 */
public final class Nemeses {

    public static final String NONE = "none";
    public static final String MIXED = "mixed";

    private static final Map<String, NemesisDescriptor> ALL = new LinkedHashMap<>();

    static {
        ALL.put(NONE, new NemesisDescriptor(NONE, "no faults", List.of()));
        for (Fault f : Faults.all()) {
            ALL.put(f.name(), new NemesisDescriptor(f.name(), f.description(), List.of(f)));
        }
        // The power failures and the failing disks need the lazy file system under every server (--lazyfs): named
        // on their own they imply it; mixed draws them only when the run has asked for it, rather than impose it
        // (a slower file system) on every mixed run.
        ALL.put(MIXED, new NemesisDescriptor(MIXED, "a seeded random sequence of all of the above (the *-unfsynced "
                + "and disk-* ones only with --lazyfs; the client faults only when clients run as processes)",
                Faults.all()));
    }

    private Nemeses() {
    }

    /** Every nemesis, in order. */
    public static List<NemesisDescriptor> all() {
        return List.copyOf(ALL.values());
    }

    /** Every nemesis name, in order. */
    public static List<String> names() {
        return new ArrayList<>(ALL.keySet());
    }

    /** Names with one-line descriptions, in order. */
    public static Map<String, String> descriptions() {
        Map<String, String> m = new LinkedHashMap<>();
        ALL.forEach((n, d) -> m.put(n, d.description()));
        return Collections.unmodifiableMap(m);
    }

    /** The nemesis of that name, if any. */
    public static Optional<NemesisDescriptor> byName(String name) {
        return Optional.ofNullable(ALL.get(name));
    }

    /** @throws IllegalArgumentException naming the unknown nemesis and listing the known ones */
    public static NemesisDescriptor require(String name) {
        return byName(name).orElseThrow(() -> new IllegalArgumentException("unknown nemesis '" + name
                + "'; known: " + String.join(", ", ALL.keySet())));
    }
}
