package io.zkchaos.checkers.evidence;

/** The parts of a run that evidence is counted in ({@link FunctionTally}). */
public enum Phase {
    /** The whole run. */
    ALL("over the run"),
    /** Invoked before the final heal: the main phase, with its faults. */
    MAIN("in the main phase"),
    /** In flight while a fault was in force. */
    UNDER_FAULT("while a fault was in force"),
    /** Invoked after the final heal began. */
    AFTER_HEAL("after the final heal");

    private final String words;

    Phase(String words) {
        this.words = words;
    }

    /** The phase as a sentence ends: {@code after the final heal}. */
    public String words() {
        return words;
    }
}
