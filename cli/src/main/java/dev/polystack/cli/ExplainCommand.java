package dev.polystack.cli;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Callable;

@Command(
        name = "explain",
        mixinStandardHelpOptions = true,
        description =
                "Which module and runner a resource would get in an environment, and why: every rule considered, the one chosen.")
class ExplainCommand extends Connection implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--type", required = true, description = "The resource type, e.g. postgres.")
    String type;

    @Option(
            names = "--id",
            required = true,
            description = "The resource id, e.g. checkout.db (workload.alias) or a shared alias.")
    String id;

    @Option(
            names = "--class",
            defaultValue = "default",
            description = "The resource class (default: ${DEFAULT-VALUE}).")
    String resourceClass;

    @Option(
            names = {"-o", "--output"},
            defaultValue = "table",
            description = "table, json or yaml (default: ${DEFAULT-VALUE}).")
    Output.Format format;

    @Override
    public Integer call() {
        Target target = target();
        JsonNode view = client().get(target.path() + "/explain?type=" + encode(type) + "&class=" + encode(resourceClass)
                + "&id=" + encode(id));
        PrintWriter out = spec.commandLine().getOut();
        if (format != Output.Format.table) {
            Output.print(out, format, view, List.of());
            return ExitCodes.OK;
        }
        section(out, "Module", view.path("module"));
        section(out, "Runner", view.path("runner"));
        out.flush();
        return view.path("module").hasNonNull("error") || view.path("runner").hasNonNull("error")
                ? ExitCodes.BAD_INPUT
                : ExitCodes.OK;
    }

    private static void section(PrintWriter out, String title, JsonNode explanation) {
        String chosen = explanation.path("chosen").asText(null);
        out.printf(
                "%s: %s%n",
                title,
                chosen != null
                        ? chosen + " (rule " + explanation.path("winner").asText("-") + ")"
                        : "none: " + explanation.path("error").asText("no rule matches"));
        for (JsonNode candidate : explanation.path("candidates")) {
            out.printf(
                    "  %s rule %s -> %s%n",
                    candidate.path("matched").asBoolean() ? "matches      " : "does not match",
                    candidate.path("rule_id").asText(),
                    candidate.path("target").asText());
            for (JsonNode reason : candidate.path("reasons")) {
                out.printf("      %s%n", reason.asText());
            }
        }
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
