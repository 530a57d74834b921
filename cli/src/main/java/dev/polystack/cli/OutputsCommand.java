package dev.polystack.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

@Command(
        name = "outputs",
        mixinStandardHelpOptions = true,
        description =
                "The outputs of an environment's resources. Sensitive values are shown as *** (the API never returns them).")
class OutputsCommand extends Connection implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--resource", description = "Only this resource: type/class/id, or its id.")
    String resource;

    @Option(
            names = {"-o", "--output"},
            defaultValue = "table",
            description = "table, json or yaml (default: ${DEFAULT-VALUE}).")
    Output.Format format;

    @Override
    public Integer call() {
        Target target = target();
        JsonNode graph = client().get(target.path() + "/resource-graph?outputs=true");
        ArrayNode rows = JsonNodeFactory.instance.arrayNode();
        for (JsonNode node : graph.path("nodes")) {
            String key = key(node);
            if (resource != null
                    && !resource.equals(key)
                    && !resource.equals(node.path("id").asText())) {
                continue;
            }
            if (format == Output.Format.table) {
                node.path("outputs")
                        .fields()
                        .forEachRemaining(e -> rows.addObject()
                                .put("resource", key)
                                .put("output", e.getKey())
                                .put(
                                        "value",
                                        e.getValue().isValueNode()
                                                ? e.getValue().asText()
                                                : e.getValue().toString()));
            } else {
                ObjectNode row = rows.addObject().put("resource", key);
                row.set("outputs", node.path("outputs"));
            }
        }
        if (resource != null && rows.isEmpty() && format != Output.Format.table) {
            throw CliException.badInput("environment " + target + " has no resource `" + resource + "`");
        }
        Output.print(spec.commandLine().getOut(), format, rows, List.of("resource", "output", "value"));
        return ExitCodes.OK;
    }

    /** After a deployment: the outputs of the resources it applied. */
    static void print(Client client, Target target, JsonNode deployment, PrintWriter out) {
        Set<String> applied = new HashSet<>();
        for (JsonNode node : deployment.path("nodes")) {
            if (!node.path("operation").asText().equals("destroy")) {
                applied.add(key(node));
            }
        }
        JsonNode graph = client.get(target.path() + "/resource-graph?outputs=true");
        boolean header = false;
        for (JsonNode node : graph.path("nodes")) {
            if (!applied.contains(key(node)) || node.path("outputs").isEmpty()) {
                continue;
            }
            if (!header) {
                out.println("Outputs:");
                header = true;
            }
            out.println("  " + key(node));
            node.path("outputs")
                    .fields()
                    .forEachRemaining(e -> out.printf(
                            "    %s = %s%n",
                            e.getKey(),
                            e.getValue().isValueNode()
                                    ? e.getValue().asText()
                                    : e.getValue().toString()));
        }
        out.flush();
    }

    static String key(JsonNode node) {
        return node.path("type").asText() + "/" + node.path("class").asText() + "/"
                + node.path("id").asText();
    }
}
