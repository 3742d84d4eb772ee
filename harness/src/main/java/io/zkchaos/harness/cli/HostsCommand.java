package io.zkchaos.harness.cli;

import io.zkchaos.harness.cluster.ssh.HostsMaintenance;
import io.zkchaos.harness.cluster.ssh.SshSettings;
import io.zkchaos.results.Verdicts;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;

/**
 * {@code zkchaos hosts}: the ssh backend's hosts outside a run. {@code heal} ends what harnesses left on them
 * (servers, iptables chains, traffic shaping, run directories); {@code check} says whether each has what a run needs.
 */
@Command(name = "hosts", mixinStandardHelpOptions = true, synopsisSubcommandLabel = "COMMAND",
        description = "The ssh backend's hosts (--hosts FILE), outside a run.",
        subcommands = {HostsCommand.Heal.class, HostsCommand.Check.class})
public final class HostsCommand implements Runnable {

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command: heal or check");
    }

    /** {@code zkchaos hosts heal}. */
    @Command(name = "heal", mixinStandardHelpOptions = true, description = "End what zk-chaos left on the hosts: "
            + "servers, iptables chains and traffic shaping of runs whose harness is gone (a killed one), and their "
            + "directories. What a harness of this machine that still runs holds is left alone. Exit status 0, or 2 "
            + "when a host could not be reached or healed.")
    static final class Heal implements Callable<Integer> {
        @Spec
        CommandLine.Model.CommandSpec spec;

        @Mixin
        SshOptions ssh = new SshOptions();

        @Override
        public Integer call() {
            return report(spec, ssh, HostsMaintenance::heal, "nothing left");
        }
    }

    /** {@code zkchaos hosts check}. */
    @Command(name = "check", mixinStandardHelpOptions = true, description = "Connect to every host and say what it "
            + "has for the ssh backend: a JRE, iptables, root (or sudo), what its kernel can shape (tc netem, tbf). "
            + "Exit status 0 when every host has what a run needs, 2 otherwise.")
    static final class Check implements Callable<Integer> {
        @Spec
        CommandLine.Model.CommandSpec spec;

        @Mixin
        SshOptions ssh = new SshOptions();

        @Override
        public Integer call() {
            return report(spec, ssh, HostsMaintenance::check, "");
        }
    }

    /** Prints each host's lines (or {@code none} when it has none); 2 when a line is an error or a problem. */
    private static int report(CommandLine.Model.CommandSpec spec, SshOptions ssh,
                              Function<SshSettings, Map<String, List<String>>> action, String none) {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        SshSettings settings;
        try {
            settings = ssh.settings();
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return Verdicts.Exit.ERROR;
        }
        if (settings == null) {
            err.println("error: --hosts FILE is needed (one host a line)");
            return Verdicts.Exit.ERROR;
        }
        Map<String, List<String>> result;
        try {
            result = action.apply(settings);
        } catch (RuntimeException e) {
            err.println("error: " + e.getMessage());
            return Verdicts.Exit.ERROR;
        }
        boolean bad = false;
        for (Map.Entry<String, List<String>> host : result.entrySet()) {
            out.println(host.getKey() + ":");
            if (host.getValue().isEmpty() && !none.isEmpty()) {
                out.println("  " + none);
            }
            for (String line : host.getValue()) {
                out.println("  " + line);
                bad |= line.startsWith("error:") || line.startsWith("problem:");
            }
        }
        out.flush();
        return bad ? Verdicts.Exit.ERROR : 0;
    }
}
