package dev.polystack.cli;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Callable;

@Command(
        name = "login",
        mixinStandardHelpOptions = true,
        description =
                "Check a URL and an API token (or, with --device, sign in with your identity provider in a browser) and store them"
                        + " as a named context, the current one from now on.%n"
                        + "The file (~/.config/polystack/config) is readable by you only. In CI, set POLYSTACK_URL and POLYSTACK_TOKEN instead.")
class LoginCommand implements Callable<Integer> {

    @ParentCommand
    Main main;

    @Spec
    CommandSpec spec;

    @Option(names = "--url", required = true, description = "Polystack's address, e.g. http://localhost:8080.")
    String url;

    @Option(
            names = "--token",
            description =
                    "An API token (pst_...). Prefer --token-stdin: a token on the command line stays in the shell's history.")
    String token;

    @Option(names = "--token-stdin", description = "Read the token from standard input.")
    boolean tokenStdin;

    @Option(
            names = "--device",
            description = "Sign in with Polystack's identity provider (OIDC): open the link shown, on any device,"
                    + " and confirm the code. The session is renewed while you use it.")
    boolean device;

    @Option(names = "--name", defaultValue = "default", description = "The context's name (default: ${DEFAULT-VALUE}).")
    String name;

    @Option(names = "--env", description = "A default environment, org/project/env, for commands that take --env.")
    String env;

    @Override
    public Integer call() throws IOException {
        if (env != null) {
            Target.parse(env);
        }
        if (device) {
            if (token != null || tokenStdin) {
                throw CliException.badInput("--device signs in without a token: leave out --token and --token-stdin");
            }
            DeviceSignIn.Tokens tokens = new DeviceSignIn(Clock.systemUTC())
                    .signIn(url, spec.commandLine().getErr(), Duration.ofMinutes(15));
            return store(new Settings.Context(url, tokens.accessToken(), env, tokens.session()));
        }
        String value = token;
        if (tokenStdin) {
            value = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        } else if (value == null && System.console() != null) {
            char[] typed = System.console().readPassword("API token: ");
            value = typed == null ? null : new String(typed);
        }
        if (value == null || value.isBlank()) {
            throw CliException.badInput("no token: pass --token-stdin (or --token)");
        }
        return store(new Settings.Context(url, value.strip(), env));
    }

    /** Checks the sign-in with the API, then stores it as the current context. */
    private int store(Settings.Context context) {
        JsonNode me = new Client(url, context.token()).get("/api/v1/me");
        Settings settings = Settings.load(main.settingsFile);
        settings.put(name, context);
        settings.use(name);
        settings.save();
        spec.commandLine()
                .getOut()
                .printf(
                        "Signed in to %s as %s (context `%s`, stored in %s)%n",
                        url, me.path("name").asText("?"), name, main.settingsFile);
        return ExitCodes.OK;
    }
}
