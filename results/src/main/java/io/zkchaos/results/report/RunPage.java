package io.zkchaos.results.report;

import freemarker.template.TemplateModel;
import java.util.List;

/**
 * Everything the run template shows, computed from a run directory's files ({@link RunFiles}); the template only
 * lays it out.
 *
 * @param title     the scenario ({@code register-isolate-leader}) or the directory's name
 * @param verdict   {@code valid}, {@code invalid}, {@code unknown} or {@code unchecked} (a CSS class)
 * @param word      the verdict in words
 * @param headline  the run's one-line explanation, with entry links
 * @param facts     the figures in the header (operations, faults, span, seed, ...)
 * @param cards     every checker's result, the run's first
 * @param servers   "What the servers said": the server and availability cards' tables, servers.jsonl, what is missing
 * @param faults    every fault window, in order
 * @param exercised what the run exercised ({@code evidence.json}), or null when the run directory has none
 * @param notes     what was missing, repaired or left out, said on the page
 * @param config    the configuration as name/value rows
 * @param directory the run directory's path
 * @param data      the page's data as JSON, escaped for a script element (see {@link ScriptJson})
 */
public record RunPage(String title, String verdict, String word, Text headline, List<CheckerCard.Fact> facts,
                      List<CheckerCard> cards, ServersSection servers, List<FaultWindow> faults,
                      ExercisedView exercised, List<String> notes, List<CheckerCard.Fact> config, String directory,
                      TemplateModel data) {
}
