package io.zkchaos.harness.cli;

import io.zkchaos.checkers.CheckerCatalog;
import io.zkchaos.results.Verdicts;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code zkchaos} command line. Subcommands: {@code check} and {@code convert}. Run {@code ./zkchaos --help} from the repository.
 *
 * <p>Usage errors (unknown flag, bad value, unknown model) exit with {@value Verdicts.Exit#ERROR} and a
 * one-line message naming the problem, followed by a hint to {@code --help}.
 */
@Command(name = "zkchaos", mixinStandardHelpOptions = true, version = "zk-chaos 0.1.0",
        description = "Jepsen-style fault injection and linearizability checking for Apache ZooKeeper.",
        synopsisSubcommandLabel = "COMMAND")
public final class Main implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        // No subcommand given.
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command: use one of "
                + String.join(", ", spec.subcommands().keySet()));
    }

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(new java.io.OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
        PrintWriter err = new PrintWriter(new java.io.OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
        int code = run(args, out, err);
        out.flush();
        err.flush();
        System.exit(code);
    }

    /** Runs the command line with the given streams and returns the exit status (for tests and embedding). */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        return commandLine(CheckerCatalog.standard(), out, err).execute(args);
    }

    /** The configured command line, with {@code catalog}'s checkers available to {@code check}. */
    public static CommandLine commandLine(CheckerCatalog catalog, PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(new Main());
        cl.addSubcommand("check", new CheckCommand(catalog));
        cl.addSubcommand("convert", new ConvertCommand());
        cl.addSubcommand("run", new RunCommand());
        cl.addSubcommand("report", new ReportCommand());
        cl.addSubcommand("servers", new ServersCommand());
        cl.addSubcommand("scenarios", new ScenariosCommand());
        cl.addSubcommand("bench", new BenchCommand());
        cl.addSubcommand("mutations", new MutationsCommand());
        cl.addSubcommand("replay", new ReplayCommand());
        cl.addSubcommand("shrink", new ShrinkCommand());
        cl.addSubcommand("hosts", new HostsCommand());
        // The delegated benchmarks' own options (checker --data DIR --ops N) pass through in order.
        cl.getSubcommands().get("bench").setUnmatchedOptionsArePositionalParams(true);
        cl.setOut(out);
        cl.setErr(err);
        cl.setParameterExceptionHandler((ex, args) -> {
            CommandLine c = ex.getCommandLine();
            c.getErr().println("error: " + ex.getMessage());
            c.getErr().println("Try '" + c.getCommandSpec().qualifiedName() + " --help' for usage.");
            return Verdicts.Exit.ERROR;
        });
        cl.setExecutionExceptionHandler((ex, c, parseResult) -> {
            c.getErr().println("error: zkchaos failed: " + ex);
            ex.printStackTrace(c.getErr());
            return Verdicts.Exit.ERROR;
        });
        return cl;
    }
}
