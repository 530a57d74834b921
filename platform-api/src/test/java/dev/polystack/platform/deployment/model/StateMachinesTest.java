package dev.polystack.platform.deployment.model;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.polystack.platform.environment.EnvironmentStatus;
import dev.polystack.rules.ResourceIdentity;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.EnumSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.BiPredicate;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every transition each status type allows, written out once more as the documentation states them: a
 * transition added to or dropped from an enum without this list changing fails here. (That the engine only
 * makes allowed ones is checked by the entities, which refuse any other, and by {@link EngineModelTest},
 * where no advance may fail.) Plain JUnit, no Quarkus.
 */
class StateMachinesTest {

    private static <E extends Enum<E>> Set<String> allowed(
            Class<E> type, BiPredicate<E, E> canMoveTo, Function<E, String> name) {
        Set<String> transitions = new TreeSet<>();
        for (E from : EnumSet.allOf(type)) {
            for (E to : EnumSet.allOf(type)) {
                if (canMoveTo.test(from, to)) {
                    transitions.add(name.apply(from) + " -> " + name.apply(to));
                }
            }
        }
        return transitions;
    }

    @Test
    void nodeStatuses() {
        assertThat(allowed(NodeStatus.class, NodeStatus::canMoveTo, NodeStatus::wireName))
                .containsExactlyInAnyOrder(
                        "pending -> queued",
                        "pending -> skipped",
                        "pending -> unchanged",
                        "pending -> failed",
                        "pending -> cancelled",
                        "pending -> succeeded",
                        "pending -> planned",
                        "queued -> running",
                        "queued -> succeeded",
                        "queued -> failed",
                        "queued -> cancelled",
                        "running -> queued",
                        "running -> succeeded",
                        "running -> failed",
                        "running -> cancelled",
                        "running -> planned",
                        "planned -> queued",
                        "planned -> skipped",
                        "planned -> unchanged",
                        "planned -> failed",
                        "planned -> cancelled",
                        "planned -> succeeded");
        for (NodeStatus status : NodeStatus.values()) {
            assertThat(status.isTerminal())
                    .as(status.wireName())
                    .isEqualTo(EnumSet.of(
                                    NodeStatus.SUCCEEDED,
                                    NodeStatus.FAILED,
                                    NodeStatus.SKIPPED,
                                    NodeStatus.CANCELLED,
                                    NodeStatus.UNCHANGED)
                            .contains(status));
        }
        assertThat(EnumSet.allOf(NodeStatus.class).stream().filter(NodeStatus::letsDependentsRun))
                .containsExactlyInAnyOrder(NodeStatus.SUCCEEDED, NodeStatus.UNCHANGED);
    }

    @Test
    void deploymentStatuses() {
        assertThat(allowed(DeploymentStatus.class, DeploymentStatus::canMoveTo, DeploymentStatus::wireName))
                .containsExactlyInAnyOrder(
                        "queued -> running",
                        "queued -> cancelled",
                        "running -> succeeded",
                        "running -> failed",
                        "running -> cancelled",
                        "running -> awaiting_approval",
                        "awaiting_approval -> running",
                        "awaiting_approval -> cancelled",
                        "awaiting_approval -> failed");
    }

    @Test
    void jobStatuses() {
        assertThat(allowed(JobStatus.class, JobStatus::canMoveTo, JobStatus::wireName))
                .containsExactlyInAnyOrder(
                        "queued -> running",
                        "queued -> cancelled",
                        "running -> done",
                        "running -> cancelled",
                        "running -> lost");
        assertThat(EnumSet.allOf(JobStatus.class).stream().filter(JobStatus::isTerminal))
                .containsExactlyInAnyOrder(JobStatus.DONE, JobStatus.CANCELLED, JobStatus.LOST);
    }

    @Test
    void environmentStatuses() {
        assertThat(allowed(EnvironmentStatus.class, EnvironmentStatus::canMoveTo, EnvironmentStatus::wireName))
                .containsExactlyInAnyOrder(
                        "active -> deleting",
                        "deleting -> delete_failed",
                        "deleting -> active",
                        "delete_failed -> deleting",
                        "delete_failed -> active");
    }

    @Test
    void aDestroyWhoseResourceIsGoneEndsAsSucceededWithNothingDone() {
        DeploymentNode node = new DeploymentNode(
                UUID.randomUUID(),
                new ResourceIdentity("thing", "default", "a"),
                "active.thing/default/a",
                NodeOperation.DESTROY,
                null,
                "thing",
                1,
                UUID.randomUUID(),
                JsonNodeFactory.instance.objectNode());
        node.nothingToDestroy(Instant.now());
        assertThat(node.status()).isEqualTo(NodeStatus.SUCCEEDED);
        assertThat(node.action()).isEqualTo("no-op");
        Assertions.assertThatThrownBy(() -> node.nothingToDestroy(Instant.now()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("cannot go from succeeded to succeeded");
    }
}
