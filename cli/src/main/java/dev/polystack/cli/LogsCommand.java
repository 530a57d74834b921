package dev.polystack.cli;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;

@Command(
        name = "logs",
        mixinStandardHelpOptions = true,
        description =
                "A deployment's log lines, of every resource or of one; with -f, follow them until the deployment ends.")
class LogsCommand extends Connection implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", description = "The deployment's id.")
    String deployment;

    @Option(names = "--resource", description = "Only this resource's lines: type/class/id.")
    String resource;

    @Option(
            names = {"-f", "--follow"},
            description = "Keep printing lines as they come, until the deployment ends.")
    boolean follow;

    @Override
    public Integer call() {
        Target target = target();
        Client client = client();
        PrintWriter out = spec.commandLine().getOut();
        String base = target.path() + "/deployments/" + deployment + "/logs";
        String node = resource == null ? "" : "node=" + URLEncoder.encode(resource, StandardCharsets.UTF_8);
        if (follow) {
            client.events(base + "?follow=true" + (node.isEmpty() ? "" : "&" + node), (event, data) -> {
                if (event.equals("log")) {
                    try {
                        print(out, Client.JSON.readTree(data));
                    } catch (IOException e) {
                        out.println(data);
                    }
                }
            });
            return ExitCodes.OK;
        }
        client.items(base + (node.isEmpty() ? "" : "?" + node), line -> print(out, line));
        return ExitCodes.OK;
    }

    private static void print(PrintWriter out, JsonNode line) {
        out.printf(
                "%s %-5s %s  %s%n",
                line.path("time").asText(""),
                line.path("level").asText("info"),
                line.path("node").asText(""),
                line.path("message").asText(""));
        out.flush();
    }
}
