package dev.polystack.platform.deployment;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.List;

/**
 * What a deployment of a manifest version would do, computed at once and not stored.
 *
 * @param manifestVersion the stored manifest version it was computed for; null for a manifest that was not stored
 * @param layers resource keys ({@code type/class/id}) by layer: layer 0 depends on nothing
 */
public record DryRunView(
        Integer manifestVersion,
        List<Node> nodes,
        List<GraphView.Edge> edges,
        List<List<String>> layers,
        Summary summary) {

    /**
     * @param change  added, removed, module_changed, inputs_changed, definition_changed (provider or output schema),
     *                unchanged, or kept (a rollback leaves it as it is)
     * @param reasons why it changes: module, inputs, providers, schema
     * @param inputs  resolved inputs as far as known now; sensitive values as {@code ***}
     * @param unknown inputs that depend on outputs known only after their dependencies apply
     */
    @Schema(name = "DryRunNode")
    public record Node(
            String key,
            String type,
            @JsonProperty("class") String resourceClass,
            String id,
            String path,
            String moduleId,
            Integer moduleVersion,
            String runnerId,

            @Schema(
                    enumeration = {
                        "added",
                        "removed",
                        "module_changed",
                        "inputs_changed",
                        "definition_changed",
                        "unchanged",
                        "kept"
                    })
            String change,

            @Schema(
                    description = "Why it changes: module (version), inputs, providers (configuration, secrets, source,"
                            + " version), schema (the resource type's output schema); for a rollback, why it is kept")
            List<String> reasons,

            JsonNode inputs,
            List<String> unknown) {}

    @Schema(name = "DryRunSummary")
    public record Summary(int add, int change, int destroy, int unchanged) {}
}
