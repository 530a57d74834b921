package dev.polystack.rules.graph;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.polystack.rules.ResourceIdentity;

import java.util.Map;

/**
 * One resource of an expanded graph, with its inputs still unresolved.
 *
 * @param path               where it comes from: a manifest path, or its dependent's path plus {@code .dependencies.<alias>}
 * @param module             the chosen module version
 * @param moduleRuleId       the rule that chose it
 * @param runnerId           the chosen runner
 * @param runnerRuleId       the rule that chose it, or null when the resource keeps the runner it was provisioned by
 * @param params             params from the manifest or the dependent module, validated against the module's params
 * @param dependencies       the module's dependency aliases and the resources they are
 * @param manifestReferences the {@code resources.<alias>} and {@code shared.<alias>} names its params use, and their resources
 * @param providers          provider bindings by local name
 */
public record GraphNode(
        ResourceIdentity identity,
        String path,
        ModuleSpec module,
        String moduleRuleId,
        String runnerId,
        String runnerRuleId,
        ObjectNode params,
        Map<String, ResourceIdentity> dependencies,
        Map<String, ResourceIdentity> manifestReferences,
        Map<String, ProviderBinding> providers) {

    public GraphNode {
        params = params.deepCopy();
        dependencies = Map.copyOf(dependencies);
        manifestReferences = Map.copyOf(manifestReferences);
        providers = Map.copyOf(providers);
    }

    @Override
    public ObjectNode params() {
        return params.deepCopy();
    }
}
