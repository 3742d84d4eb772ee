package io.zkchaos.results.report;

import java.util.List;

/**
 * One fault as the nemesis recorded it: from its invoke until the heal that ended it (a heal ends every fault in
 * force), with what it really did. Positions {@code start}/{@code end} are on the page's axis (µs since the history's
 * start, or entry numbers for a history without times).
 *
 * @param fault       the fault's name ({@code isolate-leader}, {@code kill}, ...)
 * @param label       what it did, as the nemesis described it ({@code isolate n3 from {n1, n2}}, {@code kill n2})
 * @param cuts        the links it cut ({@code n1–n3, n2–n3}; {@code n1→n3} when only one way), or empty
 * @param nodes       the nodes it acted on
 * @param failed      true when the nemesis could not act (e.g. no leader to aim at); {@code label} says why
 * @param start       where it starts (its invoke)
 * @param end         where it ends (the completion of the heal that ended it, or the end of the history)
 * @param healed      false when the history ends with the fault still in force
 * @param invokeEntry the entry of its invoke
 * @param infoEntry   the entry of its completion (what it did), -1 if none
 * @param healEntry   the entry of the heal that ended it, -1 if none
 * @param startAt     its start, for people
 * @param length      how long it was in force, for people
 */
public record FaultWindow(String fault, String label, String cuts, List<String> nodes, boolean failed, long start,
                          long end, boolean healed, long invokeEntry, long infoEntry, long healEntry, String startAt,
                          String length) {

    public FaultWindow {
        nodes = List.copyOf(nodes);
    }
}
