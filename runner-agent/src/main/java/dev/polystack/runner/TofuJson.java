package dev.polystack.runner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.polystack.runner.protocol.JobResult;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** Reads what {@code tofu show -json} (plan and state) and {@code tofu output -json} print. */
public final class TofuJson {

    private static final ObjectMapper JSON = new ObjectMapper();

    private TofuJson() {}

    static JsonNode read(String text) throws IOException {
        JsonNode node = JSON.readTree(text);
        if (node == null || !node.isObject()) {
            throw new IOException("expected a JSON object from tofu");
        }
        String format = node.path("format_version").asText("1.0");
        if (!format.startsWith("1.") && !format.startsWith("0.")) {
            throw new IOException("unsupported format_version " + format + " (this agent reads 0.x and 1.x)");
        }
        return node;
    }

    /** add / change / destroy of a plan, from its resource changes; a replace counts as one add and one destroy. */
    public static JobResult.PlanSummary planSummary(JsonNode plan) {
        int add = 0;
        int change = 0;
        int destroy = 0;
        for (JsonNode resourceChange : plan.path("resource_changes")) {
            Set<String> actions = new TreeSet<>();
            resourceChange.path("change").path("actions").forEach(a -> actions.add(a.asText()));
            if (actions.contains("create")) {
                add++;
            }
            if (actions.contains("delete")) {
                destroy++;
            }
            if (actions.contains("update")) {
                change++;
            }
        }
        return new JobResult.PlanSummary(add, change, destroy);
    }

    /** The outputs the called module itself declares sensitive, from a plan's configuration. */
    public static Set<String> sensitiveModuleOutputs(JsonNode plan, String moduleCall) {
        Set<String> sensitive = new TreeSet<>();
        plan.path("configuration")
                .path("root_module")
                .path("module_calls")
                .path(moduleCall)
                .path("module")
                .path("outputs")
                .fields()
                .forEachRemaining(output -> {
                    if (output.getValue().path("sensitive").asBoolean(false)) {
                        sensitive.add(output.getKey());
                    }
                });
        return sensitive;
    }

    /** Every resource in a state (root and child modules, recursively), as the control plane records it. */
    public static List<JsonNode> resources(JsonNode state) {
        List<JsonNode> resources = new ArrayList<>();
        collect(state.path("values").path("root_module"), resources);
        return resources;
    }

    private static void collect(JsonNode module, List<JsonNode> into) {
        String moduleAddress = module.path("address").asText("");
        for (JsonNode resource : module.path("resources")) {
            ObjectNode out = JSON.createObjectNode();
            out.put("address", resource.path("address").asText());
            out.put("mode", resource.path("mode").asText());
            out.put("type", resource.path("type").asText());
            out.put("name", resource.path("name").asText());
            if (resource.has("index")) {
                out.set("index", resource.get("index"));
            }
            out.put("provider", resource.path("provider_name").asText());
            out.put("module", moduleAddress);
            out.set("depends_on", resource.has("depends_on") ? resource.get("depends_on") : JSON.createArrayNode());
            into.add(out);
        }
        for (JsonNode child : module.path("child_modules")) {
            collect(child, into);
        }
    }

    /**
     * Outputs from {@code output -json}: name → value and sensitivity. A root output counts as sensitive
     * when the module declares it so (the agent declares every root output sensitive to keep it out of logs).
     */
    public static Map<String, JobResult.Output> outputs(String outputJson, Set<String> sensitiveInModule)
            throws IOException {
        JsonNode all = JSON.readTree(outputJson);
        Map<String, JobResult.Output> outputs = new LinkedHashMap<>();
        if (all == null || !all.isObject()) {
            return outputs;
        }
        all.fields()
                .forEachRemaining(e -> outputs.put(
                        e.getKey(),
                        new JobResult.Output(e.getValue().path("value"), sensitiveInModule.contains(e.getKey()))));
        return outputs;
    }
}
