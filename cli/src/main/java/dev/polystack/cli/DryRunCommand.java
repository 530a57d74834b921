package dev.polystack.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

@Command(
        name = "dry-run",
        aliases = "diff",
        mixinStandardHelpOptions = true,
        description =
                "What deploying a manifest would change, resource by resource, without storing or running anything.%n"
                        + "Exit code 0 when nothing would change, 2 when something would (like `plan -detailed-exitcode`), 3 for bad input.")
class DryRunCommand extends Connection implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(
            names = {"-f", "--file"},
            required = true,
            description = "The manifest (YAML or JSON); - reads standard input.")
    String file;

    @Option(names = "--all", description = "List unchanged resources too.")
    boolean all;

    @Option(
            names = {"-o", "--output"},
            defaultValue = "table",
            description = "table, json or yaml (default: ${DEFAULT-VALUE}).")
    Output.Format format;

    @Override
    public Integer call() {
        Target target = target();
        DeployCommand.Manifest manifest = DeployCommand.Manifest.read(file);
        JsonNode result = client().post(target.path() + "/manifest/dry-run", manifest.contentType(), manifest.text());
        PrintWriter out = spec.commandLine().getOut();
        JsonNode summary = result.path("summary");
        boolean changes = summary.path("add").asInt()
                        + summary.path("change").asInt()
                        + summary.path("destroy").asInt()
                > 0;
        if (format != Output.Format.table) {
            Output.print(out, format, result, List.of());
            return changes ? ExitCodes.CANCELLED_OR_TIMED_OUT : ExitCodes.OK;
        }
        ArrayNode rows = JsonNodeFactory.instance.arrayNode();
        for (JsonNode node : result.path("nodes")) {
            if (all || !node.path("change").asText().equals("unchanged")) {
                rows.addObject()
                        .put("", symbol(node.path("change").asText()))
                        .put("resource", node.path("key").asText())
                        .put("change", node.path("change").asText().replace('_', ' '))
                        .put(
                                "module",
                                node.path("module_id").asText("-")
                                        + (node.hasNonNull("module_version")
                                                ? " v"
                                                        + node.path("module_version")
                                                                .asInt()
                                                : ""))
                        .put("runner", node.path("runner_id").asText("-"))
                        .put("why", String.join(", ", texts(node.path("reasons"))));
            }
        }
        out.print(Output.table(rows, List.of("", "resource", "change", "module", "runner", "why")));
        out.printf(
                "%d to add, %d to change, %d to destroy, %d unchanged%n",
                summary.path("add").asInt(),
                summary.path("change").asInt(),
                summary.path("destroy").asInt(),
                summary.path("unchanged").asInt());
        out.flush();
        return changes ? ExitCodes.CANCELLED_OR_TIMED_OUT : ExitCodes.OK;
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(value -> texts.add(value.asText()));
        return texts;
    }

    private static String symbol(String change) {
        return switch (change) {
            case "added" -> "+";
            case "removed" -> "-";
            case "unchanged", "kept" -> " ";
            default -> "~";
        };
    }
}
