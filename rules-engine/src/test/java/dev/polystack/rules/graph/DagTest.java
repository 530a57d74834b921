package dev.polystack.rules.graph;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Properties of the sort on random graphs; the seed is printed by the assertion messages. */
class DagTest {

    @Test
    void onRandomDagsTheOrderRespectsEveryEdgeAndLayersAreMinimal() {
        Random random = new Random(Long.getLong("seed", 7L));
        for (int run = 0; run < 300; run++) {
            int n = 1 + random.nextInt(200);
            Map<Integer, Set<Integer>> dependencies = randomDag(random, n);
            Dag.Sorted<Integer> sorted = Dag.sort(nodes(n), dependencies);
            assertThat(sorted.order()).hasSize(n).doesNotHaveDuplicates();
            Map<Integer, Integer> position = new HashMap<>();
            Map<Integer, Integer> layer = new HashMap<>();
            for (int i = 0; i < n; i++) {
                position.put(sorted.order().get(i), i);
            }
            for (int l = 0; l < sorted.layers().size(); l++) {
                for (Integer node : sorted.layers().get(l)) {
                    layer.put(node, l);
                }
            }
            int currentRun = run;
            dependencies.forEach((node, deps) -> deps.forEach(dep -> {
                assertThat(position.get(dep))
                        .as("run %d: %d must come before %d", currentRun, dep, node)
                        .isLessThan(position.get(node));
                assertThat(layer.get(dep)).isLessThan(layer.get(node));
            }));
            for (int node = 0; node < n; node++) {
                int expected = dependencies.getOrDefault(node, Set.of()).stream()
                        .mapToInt(d -> layer.get(d) + 1)
                        .max()
                        .orElse(0);
                assertThat(layer.get(node))
                        .as("layer of %d is one more than its deepest dependency", node)
                        .isEqualTo(expected);
            }
        }
    }

    @Test
    void aRandomAddedBackEdgeIsAlwaysReportedAsACycle() {
        Random random = new Random(Long.getLong("seed", 11L));
        for (int run = 0; run < 300; run++) {
            int n = 2 + random.nextInt(100);
            Map<Integer, Set<Integer>> dependencies = randomDag(random, n);
            // pick a path a -> ... -> b along dependencies and add b -> a
            int a = random.nextInt(n);
            int b = a;
            int steps = 1 + random.nextInt(5);
            for (int i = 0; i < steps && !dependencies.getOrDefault(b, Set.of()).isEmpty(); i++) {
                List<Integer> deps = new ArrayList<>(dependencies.get(b));
                b = deps.get(random.nextInt(deps.size()));
            }
            int from = b;
            int to = a;
            dependencies.computeIfAbsent(from, k -> new TreeSet<>()).add(to);
            assertThatThrownBy(() -> Dag.sort(nodes(n), dependencies))
                    .isInstanceOf(Dag.CycleException.class)
                    .satisfies(e -> {
                        List<?> cycle = ((Dag.CycleException) e).cycle();
                        assertThat(cycle.get(0)).isEqualTo(cycle.get(cycle.size() - 1));
                        for (int i = 0; i + 1 < cycle.size(); i++) {
                            assertThat(dependencies.get((Integer) cycle.get(i)))
                                    .as("the cycle follows real edges")
                                    .contains((Integer) cycle.get(i + 1));
                        }
                    });
        }
    }

    @Test
    void aLongChainNeedsNoRecursion() {
        int n = 100_000;
        Map<Integer, Set<Integer>> chain = new HashMap<>();
        for (int i = 1; i < n; i++) {
            chain.put(i, Set.of(i - 1));
        }
        assertThat(Dag.sort(nodes(n), chain).layers()).hasSize(n);
        chain.put(0, Set.of(n - 1));
        assertThatThrownBy(() -> Dag.sort(nodes(n), chain)).isInstanceOf(Dag.CycleException.class);
    }

    /** Edges only go from higher to lower numbers, so the graph is acyclic. */
    private static Map<Integer, Set<Integer>> randomDag(Random random, int n) {
        Map<Integer, Set<Integer>> dependencies = new HashMap<>();
        for (int node = 1; node < n; node++) {
            int count = random.nextInt(Math.min(node, 4) + 1);
            for (int i = 0; i < count; i++) {
                dependencies.computeIfAbsent(node, k -> new TreeSet<>()).add(random.nextInt(node));
            }
        }
        return dependencies;
    }

    private static List<Integer> nodes(int n) {
        List<Integer> nodes = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            nodes.add(i);
        }
        return nodes;
    }
}
