package io.zkchaos.nemesis;

/**
 * A server's wall clock as the server itself showed it ({@link ClockControl#readClock}): the time it stamped on
 * something it did at the harness's request, between the harness's sending of the request and its answer (both on the
 * harness's true clock). The server's offset from the true time is then between {@code serverMillis - answeredMillis}
 * and {@code serverMillis - sentMillis}.
 *
 * @param sentMillis     the harness's clock when it sent the request (epoch ms)
 * @param serverMillis   the server's clock when it handled it, as the server wrote it (epoch ms)
 * @param answeredMillis the harness's clock when the answer came (epoch ms)
 * @param how            where the server's time was read, for people: {@code srvr logged in server.log}
 */
public record ClockReading(long sentMillis, long serverMillis, long answeredMillis, String how) {

    public ClockReading {
        if (answeredMillis < sentMillis) {
            throw new IllegalArgumentException("answered (" + answeredMillis + ") before sent (" + sentMillis + ")");
        }
        java.util.Objects.requireNonNull(how, "how");
    }

    /** The least offset of the server's clock this reading allows. */
    public long leastOffsetMillis() {
        return serverMillis - answeredMillis;
    }

    /** The greatest offset of the server's clock this reading allows. */
    public long mostOffsetMillis() {
        return serverMillis - sentMillis;
    }

    /** Whether {@code askedMillis} is within the offsets this reading allows, widened by {@code slackMillis}. */
    public boolean shows(long askedMillis, long slackMillis) {
        return askedMillis >= leastOffsetMillis() - slackMillis && askedMillis <= mostOffsetMillis() + slackMillis;
    }
}
