package dev.polystack.platform.deployment.scheduling;

import dev.polystack.platform.deployment.model.NodeOperation;
import dev.polystack.platform.deployment.model.NodeRepository.Edge;
import dev.polystack.platform.deployment.model.NodeRepository.NodeState;
import dev.polystack.platform.deployment.model.NodeStatus;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sinks of a deployment's graph (the nodes nothing waits for), which an advance asks about to learn whether the
 * deployment may be done: they follow what each node waits for, reversed for removals.
 */
class GraphSinksTest {

    private final UUID a = UUID.randomUUID();
    private final UUID b = UUID.randomUUID();
    private final UUID c = UUID.randomUUID();
    private final UUID d = UUID.randomUUID();
    private final UUID e = UUID.randomUUID();

    private static NodeState node(UUID id, NodeOperation operation) {
        return new NodeState(id, NodeStatus.PENDING, operation);
    }

    @Test
    void appliesEndInTheNodesNothingDependsOn() {
        // b refers to a; c refers to nothing, and nothing to it
        DeploymentEngine.Graph graph = DeploymentEngine.Graph.of(
                List.of(node(a, NodeOperation.APPLY), node(b, NodeOperation.APPLY), node(c, NodeOperation.APPLY)),
                List.of(new Edge(b, a, "a")));
        assertThat(graph.sinks()).containsExactlyInAnyOrder(b, c);
    }

    @Test
    void removalsEndInTheResourceOthersDependedOn() {
        // d referred to e: d is removed first, e last
        DeploymentEngine.Graph graph = DeploymentEngine.Graph.of(
                List.of(node(d, NodeOperation.DESTROY), node(e, NodeOperation.DESTROY)), List.of(new Edge(d, e, "e")));
        assertThat(graph.sinks()).containsExactly(e);
    }

    @Test
    void aDeploymentThatAppliesAndRemovesEndsInItsLastRemoval() {
        // removals wait for every apply: no apply is a sink
        DeploymentEngine.Graph graph = DeploymentEngine.Graph.of(
                List.of(
                        node(a, NodeOperation.APPLY),
                        node(b, NodeOperation.APPLY),
                        node(c, NodeOperation.APPLY),
                        node(d, NodeOperation.DESTROY),
                        node(e, NodeOperation.DESTROY)),
                List.of(new Edge(b, a, "a"), new Edge(d, e, "e")));
        assertThat(graph.sinks()).containsExactly(e);
    }

    @Test
    void plansEndInTheNodesNothingDependsOn() {
        DeploymentEngine.Graph graph = DeploymentEngine.Graph.of(
                List.of(node(a, NodeOperation.PLAN), node(b, NodeOperation.PLAN)), List.of(new Edge(b, a, "a")));
        assertThat(graph.sinks()).containsExactly(b);
    }
}
