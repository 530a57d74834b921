package dev.polystack.rules.benchmark;

import dev.polystack.rules.graph.ResourceGraph;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The benchmark measures a real expansion: its scenario must expand without errors to 10,000 nodes. */
class BenchmarkScenarioTest {

    @Test
    void theBenchmarkScenarioExpandsCompletely() throws Exception {
        ExpansionBenchmark benchmark = new ExpansionBenchmark();
        benchmark.moduleRules = 10_000;
        benchmark.setUp();
        ResourceGraph graph = benchmark.parseMatchExpandValidate();
        assertThat(graph.nodes()).hasSize(10_000);
        assertThat(graph.layers()).hasSize(ExpansionBenchmark.RESOURCES_PER_WORKLOAD);
        assertThat(graph.nodes().values())
                .allSatisfy(node -> assertThat(node.runnerId()).startsWith("runner-"));
        assertThat(graph.nodes().values().stream().filter(n -> n.moduleRuleId().startsWith("specific-")))
                .hasSize(4_990);
    }
}
