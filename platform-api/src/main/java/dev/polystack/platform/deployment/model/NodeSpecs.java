package dev.polystack.platform.deployment.model;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.polystack.platform.resource.ResourceDependency;
import dev.polystack.rules.ResourceIdentity;
import dev.polystack.rules.graph.GraphNode;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A node's spec as stored: the rules engine's {@link GraphNode} (module version with its inputs,
 * params, dependencies, provider bindings) in JSON, so that a deployment can be resolved, shown and
 * rolled back to without the configuration it was made from.
 */
public final class NodeSpecs {

    /** Its own mapper: the stored format must not change with the API's JSON settings. */
    private static final ObjectMapper SPEC =
            new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private NodeSpecs() {}

    public static JsonNode write(GraphNode node) {
        return SPEC.valueToTree(node);
    }

    static GraphNode read(ObjectMapper ignored, JsonNode spec) {
        try {
            return SPEC.treeToValue(spec, GraphNode.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored node spec cannot be read: " + e.getOriginalMessage(), e);
        }
    }

    /** The resources a spec's node depends on or refers to: it may see their outputs. */
    public static Set<ResourceIdentity> upstream(JsonNode spec) {
        GraphNode node = read(null, spec);
        Set<ResourceIdentity> upstream = new HashSet<>(node.dependencies().values());
        upstream.addAll(node.manifestReferences().values());
        return upstream;
    }

    /**
     * What a spec's node depends on, each with the name it uses there (a module dependency's alias, or the
     * {@code resources.<alias>} a param refers to), in the order of the resources and then the names. Read from the
     * spec, not from the deployment's edges: a deployment limited to some resources (a reconcile) has edges only
     * between the nodes it has, and the resource still depends on the others.
     */
    public static List<ResourceDependency> dependencies(JsonNode spec) {
        GraphNode node = read(null, spec);
        List<ResourceDependency> dependencies = new ArrayList<>();
        node.dependencies().forEach((alias, resource) -> dependencies.add(new ResourceDependency(resource, alias)));
        node.manifestReferences().forEach((name, resource) -> dependencies.add(new ResourceDependency(resource, name)));
        dependencies.sort(Comparator.comparing(ResourceDependency::resource).thenComparing(ResourceDependency::alias));
        return dependencies;
    }

    /** Provider local name → {@code type.id} of a spec. */
    public static Map<String, String> providerKeys(JsonNode spec) {
        Map<String, String> keys = new TreeMap<>();
        spec.path("providers").fields().forEachRemaining(e -> {
            JsonNode provider = e.getValue().path("provider");
            keys.put(
                    e.getKey(),
                    provider.path("type").asText() + "." + provider.path("id").asText());
        });
        return keys;
    }

    /** Each provider's source and version constraint by local name, for the digest. */
    static ObjectNode providerSources(JsonNode spec) {
        var sources = JsonNodeFactory.instance.objectNode();
        new TreeMap<String, JsonNode>(providerBlocks(spec))
                .forEach((local, provider) -> sources.putObject(local)
                        .put("source", provider.path("source").asText())
                        .put("version", provider.path("versionConstraint").asText("")));
        return sources;
    }

    private static Map<String, JsonNode> providerBlocks(JsonNode spec) {
        Map<String, JsonNode> blocks = new TreeMap<>();
        spec.path("providers")
                .fields()
                .forEachRemaining(e -> blocks.put(e.getKey(), e.getValue().path("provider")));
        return blocks;
    }

    /** The resource type's name of a spec's module, and its source-relevant fields. */
    static String moduleId(JsonNode spec) {
        return spec.path("module").path("id").asText(null);
    }
}
