package dev.polystack.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

@Command(
        name = "api",
        mixinStandardHelpOptions = true,
        description = "Any call of the API with your credentials, printing the answer's body: the escape hatch."
                + " Exit code 0 for a 2xx answer, 3 for a 4xx, 1 otherwise.")
class ApiCommand extends Connection implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", description = "GET, POST, PUT, PATCH or DELETE.")
    String method;

    @Parameters(index = "1", description = "The path, e.g. /api/v1/orgs.")
    String path;

    @Option(
            names = {"-d", "--data"},
            description = "The body; @FILE reads it from a file, @- from standard input.")
    String data;

    @Option(
            names = "--content-type",
            defaultValue = "application/json",
            description = "The body's type (default: ${DEFAULT-VALUE}).")
    String contentType;

    @Override
    public Integer call() throws IOException {
        String verb = method.toUpperCase(Locale.ROOT);
        if (!verb.matches("GET|POST|PUT|PATCH|DELETE")) {
            throw CliException.badInput("`" + method + "` is not one of GET, POST, PUT, PATCH, DELETE");
        }
        if (!path.startsWith("/")) {
            throw CliException.badInput("the path must start with /, e.g. /api/v1/orgs");
        }
        String body = data;
        if (data != null && data.startsWith("@")) {
            body = data.equals("@-")
                    ? new String(System.in.readAllBytes(), StandardCharsets.UTF_8)
                    : Files.readString(Path.of(data.substring(1)));
        }
        HttpResponse<String> response = client().raw(verb, path, contentType, body);
        (response.statusCode() < 300
                        ? spec.commandLine().getOut()
                        : spec.commandLine().getErr())
                .println(response.body());
        spec.commandLine().getOut().flush();
        int status = response.statusCode();
        return status < 300 ? ExitCodes.OK : status < 500 ? ExitCodes.BAD_INPUT : ExitCodes.FAILED;
    }
}
