package dev.polystack.rules.graph;

import dev.polystack.rules.ResourceIdentity;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static dev.polystack.rules.graph.Fixtures.json;
import static org.assertj.core.api.Assertions.assertThat;

class GraphDiffTest {

    private static ResourceIdentity id(String id) {
        return new ResourceIdentity("t", "default", id);
    }

    private static NodeState state(
            String id, String module, int version, String inputs, String providers, boolean complete) {
        return new NodeState(id(id), module, version, json(inputs), json(providers), complete);
    }

    @Test
    void classifiesEveryNode() {
        Map<ResourceIdentity, NodeState> before = Map.of(
                id("same"), state("same", "m", 1, "{\"a\":1}", "{}", true),
                id("removed"), state("removed", "m", 1, "{}", "{}", true),
                id("module"), state("module", "m", 1, "{}", "{}", true),
                id("inputs"), state("inputs", "m", 1, "{\"a\":1}", "{}", true),
                id("provider"), state("provider", "m", 1, "{}", "{\"aws\":{\"region\":\"a\"}}", true),
                id("unknown"), state("unknown", "m", 1, "{}", "{}", true));
        Map<ResourceIdentity, NodeState> after = Map.of(
                id("same"), state("same", "m", 1, "{\"a\":1}", "{}", true),
                id("added"), state("added", "m", 1, "{}", "{}", true),
                id("module"), state("module", "m", 2, "{}", "{}", true),
                id("inputs"), state("inputs", "m", 1, "{\"a\":2}", "{}", true),
                id("provider"), state("provider", "m", 1, "{}", "{\"aws\":{\"region\":\"b\"}}", true),
                id("unknown"), state("unknown", "m", 1, "{}", "{}", false));
        assertThat(GraphDiff.diff(before, after))
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        id("same"), Change.UNCHANGED,
                        id("added"), Change.ADDED,
                        id("removed"), Change.REMOVED,
                        id("module"), Change.MODULE_CHANGED,
                        id("inputs"), Change.INPUTS_CHANGED,
                        id("provider"), Change.INPUTS_CHANGED,
                        id("unknown"), Change.INPUTS_CHANGED));
    }
}
