package io.zkchaos.nemesis.frame;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * A fault that waits for a protocol moment: right after the {@code nth} frame of one of {@code types} (counted over
 * every tapped link from the moment it is armed), or after {@code bodyBytes} bytes of such a frame's body, it acts
 * on the stream that frame travelled on, or on one of its two ends. It fires once.
 *
 * @param fault        the fault that armed it, for records
 * @param types        the frame types that count (e.g. {@code DIFF, TRUNC, SNAP})
 * @param phase        only frames in this phase count ({@link Frame#phase()}); empty: any phase
 * @param nth          it fires at the nth counted frame, 1 for the first
 * @param bodyBytes    -1: right after the frame; otherwise after this many bytes of the frame's body (for frames a
 *                     decoder reports as long, such as a snapshot), or at its end when the body is shorter
 * @param action       what it does then
 * @param victim       for {@link Action#KILL} and {@link Action#PAUSE}: which end of the stream
 * @param delay        for {@link Action#KILL} and {@link Action#PAUSE}: how long after the frame the victim is hit
 *                     (the stream is held meanwhile, so it receives nothing more)
 * @param restartAfter for {@link Action#KILL}: start the victim again on its data this long after the kill;
 *                     null leaves it down until the heal
 */
public record FrameTrigger(String fault, Set<String> types, String phase, int nth, long bodyBytes, Action action,
                           Victim victim, Duration delay, Duration restartAfter) {

    /** What a trigger does when it fires. */
    public enum Action {
        /** Resets the connection right after the frame: both ends see it reset; they may connect again at once. */
        CUT,
        /**
         * Stops the stream right after the frame and keeps the connection open: the receiver gets nothing more,
         * the sender's bytes are held (TCP pushes back once the proxy's buffer is full) until the heal.
         */
        STALL,
        /**
         * Holds the stream right after the frame, SIGKILLs the victim, then closes the held connection, so that
         * nothing sent after the frame ever arrives.
         */
        KILL,
        /** Holds the stream right after the frame and SIGSTOPs the victim; the heal resumes both. */
        PAUSE
    }

    /** Which end of the stream a process action hits. */
    public enum Victim {
        /** The node the frame was travelling to. */
        RECEIVER,
        /** The node that sent the frame. */
        SENDER
    }

    public FrameTrigger {
        Objects.requireNonNull(fault, "fault");
        types = Set.copyOf(types);
        if (types.isEmpty()) {
            throw new IllegalArgumentException("a frame trigger needs at least one frame type");
        }
        Objects.requireNonNull(phase, "phase");
        if (nth < 1) {
            throw new IllegalArgumentException("nth must be at least 1, was " + nth);
        }
        if (bodyBytes < -1) {
            throw new IllegalArgumentException("bodyBytes must be -1 (after the frame) or >= 0, was " + bodyBytes);
        }
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(victim, "victim");
        delay = delay == null ? Duration.ZERO : delay;
    }

    /** One line for people, e.g. {@code kill the sender 5 ms after the 1st SNAPSHOT in sync}. */
    public String description() {
        String where = (bodyBytes >= 0 ? "after " + bodyBytes + " body bytes of " : "after ") + "the "
                + ordinal(nth) + " " + String.join("|", new TreeSet<>(types)) + (phase.isEmpty() ? "" : " in " + phase);
        String what = switch (action) {
            case CUT -> "reset the connection";
            case STALL -> "stall the stream";
            case KILL -> "kill the " + victim.name().toLowerCase(Locale.ROOT) + (delay.isZero() ? "" : " "
                    + delay.toMillis() + " ms") + (restartAfter == null ? "" : ", restart it "
                    + restartAfter.toMillis() + " ms later");
            case PAUSE -> "pause the " + victim.name().toLowerCase(Locale.ROOT) + (delay.isZero() ? "" : " "
                    + delay.toMillis() + " ms");
        };
        return what + " " + where;
    }

    static String ordinal(long n) {
        long mod100 = n % 100;
        String suffix = mod100 >= 11 && mod100 <= 13 ? "th"
                : switch ((int) (n % 10)) {
                    case 1 -> "st";
                    case 2 -> "nd";
                    case 3 -> "rd";
                    default -> "th";
                };
        return n + suffix;
    }
}
