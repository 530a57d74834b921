package dev.polystack.cli;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.Callable;

@Command(
        name = "deploy",
        mixinStandardHelpOptions = true,
        description = "Submit a manifest to an environment and deploy it.%n"
                + "With --wait, follow it with a line per resource and end with its outputs; the exit code says how it went:"
                + " 0 succeeded, 1 failed, 2 cancelled or timed out, 3 bad input.")
class DeployCommand extends DeploymentStarter implements Callable<Integer> {

    @Option(
            names = {"-f", "--file"},
            required = true,
            description = "The manifest (YAML or JSON); - reads standard input.")
    String file;

    @Override
    public Integer call() {
        Target target = target();
        Manifest manifest = Manifest.read(file);
        Client client = client();
        JsonNode stored = client.put(target.path() + "/manifest", manifest.contentType(), manifest.text());
        return deploy(client, target, stored.path("version").asInt());
    }

    /** A manifest file as text, with the content type its name or first character says. */
    record Manifest(String text, String contentType) {

        static Manifest read(String file) {
            String text;
            try {
                text = file.equals("-")
                        ? new String(System.in.readAllBytes(), StandardCharsets.UTF_8)
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
