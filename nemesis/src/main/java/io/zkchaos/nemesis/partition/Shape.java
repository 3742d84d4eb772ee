package io.zkchaos.nemesis.partition;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** The kinds of partition the nemesis makes, named as in the history. */
public enum Shape {
    /** One node cut off from all others. */
    ISOLATE("isolate"),
    /** A minority (the first ⌊n/2⌋ nodes in the given order) cut off from the majority. */
    HALVES("halves"),
    /** As {@link #HALVES}, over a seeded shuffle of the nodes. */
    RANDOM_HALVES("random-halves"),
    /** Two halves that cannot hear each other, joined by one node that hears and is heard by both. */
    BRIDGE("bridge"),
    /** Every node hears a majority (itself included), and no two nodes hear the same majority. */
    MAJORITIES_RING("majorities-ring"),
    /** No grudge: everyone hears everyone. */
    HEAL("heal");

    private final String wireName;

    Shape(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    @JsonCreator
    public static Shape fromWireName(String name) {
        for (Shape s : values()) {
            if (s.wireName.equals(name)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown partition shape '" + name + "'");
    }
}
