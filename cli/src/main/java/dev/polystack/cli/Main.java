package dev.polystack.cli;

import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

/** The {@code polystack} command. */
@Command(
        name = "polystack",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = "Deploy, follow and inspect Polystack environments from a terminal or CI.%n"
                + "Exit codes: 0 succeeded, 1 failed, 2 cancelled or timed out, 3 bad input.",
        subcommands = {
            LoginCommand.class,
            ContextCommand.class,
            DeployCommand.class,
            DryRunCommand.class,
            LogsCommand.class,
            GetCommand.class,
            OutputsCommand.class,
            ExplainCommand.class,
            ScoreCommand.class,
            ConfigCommand.class,
            CancelCommand.class,
            RollbackCommand.class,
            DestroyCommand.class,
            ApiCommand.class,
            AutoComplete.GenerateCompletion.class
        })
public class Main {

    /** Where the stored contexts live, and the environment (POLYSTACK_URL, POLYSTACK_TOKEN) over them. */
    final Map<String, String> environment;

    final Path settingsFile;

    Main(Map<String, String> environment) {
        this.environment = environment;
        this.settingsFile = Settings.defaultFile(environment);
    }

    public static void main(String[] args) {
        // UTF-8 whatever the locale says (JDK 17 would otherwise print names and details outside ASCII as `?`)
        System.exit(run(
                System.getenv(),
                new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true),
                new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true),
                args));
    }

    /** Runs one command line; returns its exit code. */
    public static int run(Map<String, String> environment, PrintWriter out, PrintWriter err, String... args) {
        CommandLine line = new CommandLine(new Main(environment));
        line.setOut(out);
        line.setErr(err);
        line.setParameterExceptionHandler((e, arguments) -> {
            err.println("polystack: " + e.getMessage());
            CommandLine.UnmatchedArgumentException.printSuggestions(e, err);
            err.println("Run `" + e.getCommandLine().getCommandSpec().qualifiedName() + " --help` for its usage.");
            return ExitCodes.BAD_INPUT;
        });
        line.setExecutionExceptionHandler((e, commandLine, parsed) -> {
            if (e instanceof CliException cli) {
                err.println("polystack: " + cli.getMessage());
                return cli.exitCode();
            }
            err.println("polystack: unexpected error: " + e);
            return ExitCodes.FAILED;
        });
        line.getSubcommands()
                .get("generate-completion")
                .getCommandSpec()
                .usageMessage()
                .hidden(false);
        return line.execute(args);
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = Main.class.getPackage().getImplementationVersion();
            return new String[] {"polystack " + (version == null ? "development build" : version)};
        }
    }
}
