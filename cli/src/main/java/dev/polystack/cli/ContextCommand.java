package dev.polystack.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

import java.util.Map;
import java.util.concurrent.Callable;

@Command(
        name = "context",
        mixinStandardHelpOptions = true,
        description = "List the stored contexts or switch to another one.",
        subcommands = {ContextCommand.ListContexts.class, ContextCommand.Use.class})
class ContextCommand {

    @ParentCommand
    Main main;

    @Command(
            name = "list",
            mixinStandardHelpOptions = true,
            description = "The stored contexts; * marks the current one. Tokens are never shown.")
    static class ListContexts implements Callable<Integer> {
        @ParentCommand
        ContextCommand parent;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            Settings settings = Settings.load(parent.main.settingsFile);
            String current = settings.current().orElse(null);
            settings.contexts().entrySet().stream()
                    .sorted(Map.Entry.comparingByKey())
                    .forEach(e -> spec.commandLine()
                            .getOut()
                            .printf(
                                    "%s %s  %s%s%n",
                                    e.getKey().equals(current) ? "*" : " ",
                                    e.getKey(),
                                    e.getValue().url(),
                                    e.getValue().env() == null
                                            ? ""
                                            : "  " + e.getValue().env()));
            if (settings.contexts().isEmpty()) {
                spec.commandLine().getOut().println("No context yet: run `polystack login --url URL --token-stdin`.");
            }
            return ExitCodes.OK;
        }
    }

    @Command(name = "use", mixinStandardHelpOptions = true, description = "Make a stored context the current one.")
    static class Use implements Callable<Integer> {
        @ParentCommand
        ContextCommand parent;

        @Spec
        CommandSpec spec;

        @Parameters(index = "0", description = "The context's name.")
        String name;

        @Override
        public Integer call() {
            Settings settings = Settings.load(parent.main.settingsFile);
            settings.use(name);
            settings.save();
            spec.commandLine().getOut().printf("Using context `%s`%n", name);
            return ExitCodes.OK;
        }
    }
}
