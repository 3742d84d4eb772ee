package io.zkchaos.results.report;

import java.util.List;

/**
 * What the page's script ({@code report.js}) draws, embedded in the page as JSON ({@link ScriptJson}) under these
 * names: the client operations as columns, the nemesis's entries and fault windows, the servers' modes and their own
 * account, the election's leaders, and the entries the findings name. Positions ({@code start}, {@code end},
 * {@code at}) are on the page's axis: µs since the history's start, or entry numbers when the history has no times
 * ({@code hasTimes}).
 *
 * @param hasTimes      whether every entry has a time (else the axis is the entry number)
 * @param end           where the axis ends
 * @param processes     every client process, in order
 * @param functions     the operations' functions ({@code read}, {@code write} ...); the columns index them
 * @param keys          the operations' keys; the columns index them
 * @param operations    the client operations, one column per field
 * @param nemesis       the nemesis's entries, each drawn as a dot
 * @param faults        the fault windows
 * @param servers       the servers' modes as cluster.jsonl observed them; null when not observed or without times
 * @param account       the servers' own account on their lanes; null when there is nothing to mark or no times
 * @param leaders       the election's leaderships, from the single-leader checker; null when there is none
 * @param marks         entries the findings name, for the timeline to ring (at most {@value RunPages#MAX_MARKS})
 * @param maxValueChars characters of a value kept here
 * @param clippedValues how many values were cut to {@code maxValueChars}
 */
record PageData(boolean hasTimes, long end, List<Integer> processes, List<String> functions, List<String> keys,
                Operations operations, List<NemesisEntry> nemesis, List<FaultWindow> faults, ServerModes servers,
                ServerMarks account, Leaderships leaders, List<Mark> marks, int maxValueChars, int clippedValues) {

    /**
     * The client operations as parallel columns (compact for 100,000 operations): operation {@code x} is
     * {@code process[x]}, {@code functions[function[x]]} ... Columns are arrays, so records' {@code equals} is not
     * meant for them.
     *
     * @param process       the operation's process
     * @param function      its function, as an index into {@link PageData#functions()}
     * @param key           its key, as an index into {@link PageData#keys()}, or -1
     * @param start         where its invoke is
     * @param end           where its completion is, or -1 when it never completed
     * @param outcome       0 ok, 1 fail, 2 info, 3 never completed
     * @param invokeEntry   the entry of its invoke
     * @param completeEntry the entry of its completion, or -1
     * @param input         its value at the invoke (clipped)
     * @param output        its value at an ok or fail completion (clipped), else null
     * @param error         the error its completion gave, or null
     */
    record Operations(int[] process, int[] function, int[] key, long[] start, long[] end, int[] outcome,
                      long[] invokeEntry, long[] completeEntry, String[] input, String[] output, String[] error) {
    }

    /** A nemesis entry: its {@code type} ({@code invoke}, {@code info} ...), its fault and its value (clipped). */
    record NemesisEntry(long entry, String type, String fault, long at, String value) {
    }

    /**
     * The servers' modes: a lane per node, a span per mode, and the stretches when two servers said they led.
     *
     * @param nodes    the nodes observed, in order
     * @param spans    each node's modes, one span per change
     * @param overlaps two servers saying they led at once
     */
    record ServerModes(List<String> nodes, List<ModeSpan> spans, List<ModeOverlap> overlaps) {
    }

    /** One server in one mode ({@code leader}, {@code follower} ...), with its epoch, process state and error. */
    record ModeSpan(String node, String mode, long epoch, String state, String error, long start, long end) {
    }

    /** Two servers that said they led at once, each named with its epoch. */
    record ModeOverlap(long start, long end, List<String> nodes) {
    }

    /** The election's leaderships and the overlaps of two leaders, as the single-leader checker found them. */
    record Leaderships(List<Leadership> intervals, List<LeaderOverlap> overlaps) {
    }

    /** One leadership: who, with which token, from where to where, why it ended, and the entry it began at. */
    record Leadership(String node, int process, long token, long start, long end, String endReason,
                      long startEntry) {
    }

    /** Two election leaders at once, in words. */
    record LeaderOverlap(long start, long end, String text) {
    }

    /** An entry a finding names, and in which role ({@code failing}, {@code concurrent}, {@code lost} ...). */
    record Mark(long entry, String kind) {
    }
}
