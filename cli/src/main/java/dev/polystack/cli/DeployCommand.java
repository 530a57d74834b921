package dev.polystack.cli;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

@Command(name = "deploy", mixinStandardHelpOptions = true,
        description = "Submit a manifest to an environment and deploy it.%n"
                + "With --wait, follow it with a line per resource and end with its outputs; the exit code says how it went:"
                + " 0 succeeded, 1 failed, 2 cancelled or timed out, 3 bad input.")
class DeployCommand extends Connection implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = {"-f", "--file"}, required = true, description = "The manifest (YAML or JSON); - reads standard input.")
    String file;

    @Mixin
    WaitOptions waiting;

    @Option(names = "--plan", description = "Plan only: every resource is planned, nothing is applied.")
    boolean plan;

    @Option(names = "--force", description = "Run every resource, even those whose inputs did not change.")
    boolean force;

    @Option(names = "--idempotency-key", description = "A retry with the same key returns the deployment made the first time.")
    String idempotencyKey;

    @Override
    public Integer call() {
        Target target = target();
        Manifest manifest = Manifest.read(file);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Duration limit = waiting.timeout();
        Client client = client();
        JsonNode stored = client.put(target.path() + "/manifest", manifest.contentType(), manifest.text());
        int version = stored.path("version").asInt();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("mode", plan ? "plan" : "deploy");
        body.put("manifest_version", version);
        if (force) {
            body.put("force", true);
        }
        JsonNode deployment = client.post(target.path() + "/deployments", body,
                idempotencyKey == null ? Map.of() : Map.of("Idempotency-Key", idempotencyKey));
        String id = deployment.path("id").asText();
        out.printf("Manifest version %d of %s; deployment %s (%s) %s%n", version, target, id, body.get("mode"), deployment.path("status").asText());
        if (!waiting.wait) {
            return ExitCodes.OK;
        }
        JsonNode ended = Progress.await(client, target, id, limit, out);
        int code = Progress.report(ended, out, err);
        if (code == ExitCodes.OK && !plan) {
            OutputsCommand.print(client, target, ended, out);
        }
        return code;
    }

    /** A manifest file as text, with the content type its name or first character says. */
    record Manifest(String text, String contentType) {

        static Manifest read(String file) {
            String text;
            try {
                text = file.equals("-") ? new String(System.in.readAllBytes(), StandardCharsets.UTF_8)
                        : Files.readString(Path.of(file), StandardCharsets.UTF_8);
            } catch (NoSuchFileException e) {
                throw CliException.badInput("no file `" + file + "`");
            } catch (MalformedInputException e) {
                throw CliException.badInput("`" + file + "` is not UTF-8 text");
            } catch (IOException e) {
                throw CliException.badInput("cannot read `" + file + "`: " + e.getMessage());
            }
            if (text.isBlank()) {
                throw CliException.badInput("`" + file + "` is empty");
            }
            boolean json = file.endsWith(".json") || text.stripLeading().startsWith("{");
            return new Manifest(text, json ? "application/json" : "application/yaml");
        }
    }
}
