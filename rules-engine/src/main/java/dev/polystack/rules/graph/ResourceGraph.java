package dev.polystack.rules.graph;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.polystack.rules.ResourceIdentity;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An expanded manifest: a node per resource, the edges between them (dependent to dependency), a
 * topological order (dependencies first) and layers (layer 0 depends on nothing).
 *
 * @param workloadOutputs each workload's outputs (templates) with the resources their {@code resources}
 *                        and {@code shared} names stand for
 */
public record ResourceGraph(
        Map<ResourceIdentity, GraphNode> nodes,
        List<Edge> edges,
        List<ResourceIdentity> order,
        List<List<ResourceIdentity>> layers,
        Map<String, WorkloadOutputs> workloadOutputs) {

    public ResourceGraph {
        nodes = Collections.unmodifiableMap(new LinkedHashMap<>(nodes));
        edges = List.copyOf(edges);
        order = List.copyOf(order);
        layers = layers.stream().map(List::copyOf).toList();
        workloadOutputs = Map.copyOf(workloadOutputs);
    }

    /** A workload's outputs and what the names in them refer to. */
    public record WorkloadOutputs(ObjectNode outputs, Map<String, ResourceIdentity> references) {
        public WorkloadOutputs {
            outputs = outputs.deepCopy();
            references = Map.copyOf(references);
        }
    }

    /** The resources a node depends on directly. */
    public List<ResourceIdentity> dependenciesOf(ResourceIdentity identity) {
        return edges.stream()
                .filter(e -> e.from().equals(identity))
                .map(Edge::to)
                .distinct()
                .toList();
    }
}
