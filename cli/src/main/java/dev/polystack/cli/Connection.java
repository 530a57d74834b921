package dev.polystack.cli;

import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.time.Clock;
import java.time.Instant;

/** What every command that calls the API shares: which context, the client, the environment it names. */
abstract class Connection {

    /** The command this one is under: the top command, or a group such as {@code score}. */
    @ParentCommand
    Object parent;

    @Option(names = "--context", description = "The stored context to use (default: the current one).")
    String context;

    @Option(names = "--env", description = "The environment, org/project/env (default: the context's).")
    String env;

    private Settings.Context resolved;

    Settings.Context resolved() {
        if (resolved == null) {
            Main main = main();
            Settings settings = Settings.load(main.settingsFile);
            resolved = settings.resolve(context, main.environment)
                    .orElseThrow(
                            () -> CliException.badInput(
                                    "not signed in: run `polystack login --url URL --token-stdin` (or --device), or set POLYSTACK_URL and POLYSTACK_TOKEN"));
            if (DeviceSignIn.due(resolved.session(), Instant.now())) {
                DeviceSignIn.Tokens renewed = new DeviceSignIn(Clock.systemUTC()).renew(resolved.session());
                resolved =
                        new Settings.Context(resolved.url(), renewed.accessToken(), resolved.env(), renewed.session());
                String name = settings.nameOf(context).orElseThrow();
                Settings.Context stored = settings.contexts().get(name);
                settings.put(
                        name,
                        new Settings.Context(stored.url(), renewed.accessToken(), stored.env(), renewed.session()));
                settings.save();
            }
        }
        return resolved;
    }

    Main main() {
        return parent instanceof ScoreCommand group ? group.main : (Main) parent;
    }

    Client client() {
        Settings.Context c = resolved();
        return new Client(c.url(), c.token());
    }

    /** The environment named on the command line, else the context's default one. */
    Target target() {
        return Target.parse(env != null ? env : resolved().env());
    }
}
