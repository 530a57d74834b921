package dev.polystack.platform.deployment;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** A resource graph: of an environment (its active resources) or of a deployment (its nodes). */
public record GraphView(List<Node> nodes, List<Edge> edges) {

    /**
     * @param outputs   output values, sensitive ones as {@code ***}
     * @param resources the OpenTofu resources the runner reported
     * @param issues    how many open issues the resource has (environment graphs; absent in a deployment's graph)
     */
    @Schema(name = "GraphNode")
    public record Node(
            String type,
            @JsonProperty("class") String resourceClass,
            String id,
            String moduleId,
            Integer moduleVersion,
            String runnerId,
            UUID lastDeploymentId,
            String status,
            JsonNode outputs,
            JsonNode resources,
            Instant updatedAt,
            Integer issues) {}

    /** {@code from} depends on {@code to}; {@code alias} is how it refers to it. */
    @Schema(name = "GraphEdge")
    public record Edge(String from, String to, String alias) {}
}
