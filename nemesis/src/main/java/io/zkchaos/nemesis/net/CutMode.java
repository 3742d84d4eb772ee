package io.zkchaos.nemesis.net;

/** How a link is cut. Both stop every byte; they differ in what the endpoints see. */
public enum CutMode {
    /**
     * Toxiproxy's "disabled" proxy: existing connections are closed and new ones are refused (the listening port
     * is closed), so both ends learn at once that the link is down.
     */
    REFUSE,
    /**
     * Toxiproxy's {@code timeout} toxic with timeout 0 on both streams: existing connections stay open but carry
     * nothing, new connections are accepted and stall too. The endpoints only learn through their own timeouts.
     * On heal the stalled connections are closed (their bytes were dropped), new ones flow.
     */
    BLACKHOLE
}
