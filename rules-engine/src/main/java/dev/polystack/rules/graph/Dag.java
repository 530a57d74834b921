package dev.polystack.rules.graph;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** Topological order, layers and cycle detection for dependency graphs. Deterministic; no recursion. */
public final class Dag {

    private Dag() {}

    /** Nodes in dependency order, and by layer: layer 0 depends on nothing, layer k on earlier layers only. */
    public record Sorted<T>(List<T> order, List<List<T>> layers) {}

    /** A cycle, as the list of nodes along it with the first repeated at the end. */
    public static final class CycleException extends RuntimeException {
        private final List<?> cycle;

        CycleException(List<?> cycle) {
            super(
                    "dependency cycle: "
                            + String.join(
                                    " → ", cycle.stream().map(String::valueOf).toList()),
                    null,
                    false,
                    false);
            this.cycle = List.copyOf(cycle);
        }

        public List<?> cycle() {
            return cycle;
        }
    }

    /**
     * Sorts {@code nodes} so that every node comes after all of its dependencies.
     *
     * @param dependencies for each node, the nodes it depends on (absent = none); every one must be in {@code nodes}
     * @throws CycleException naming one cycle when there is any
     */
    public static <T extends Comparable<T>> Sorted<T> sort(
            Collection<T> nodes, Map<T, ? extends Collection<T>> dependencies) {
        Set<T> all = new HashSet<>(nodes);
        Map<T, Integer> pending = new HashMap<>();
        Map<T, List<T>> dependents = new HashMap<>();
        for (T node : nodes) {
            Collection<T> deps = dependencies.containsKey(node) ? dependencies.get(node) : List.of();
            Set<T> distinct = new HashSet<>(deps);
            pending.put(node, distinct.size());
            for (T dep : distinct) {
                if (!all.contains(dep)) {
                    throw new IllegalArgumentException(node + " depends on " + dep + ", which is not a node");
                }
                dependents.computeIfAbsent(dep, k -> new ArrayList<>()).add(node);
            }
        }
        List<T> order = new ArrayList<>(nodes.size());
        List<List<T>> layers = new ArrayList<>();
        TreeSet<T> current = new TreeSet<>();
        for (T node : nodes) {
            if (pending.get(node) == 0) {
                current.add(node);
            }
        }
        while (!current.isEmpty()) {
            List<T> layer = new ArrayList<>(current);
            layers.add(layer);
            order.addAll(layer);
            TreeSet<T> next = new TreeSet<>();
            for (T done : layer) {
                for (T dependent : dependents.getOrDefault(done, List.of())) {
                    if (pending.merge(dependent, -1, Integer::sum) == 0) {
                        next.add(dependent);
                    }
                }
            }
            current = next;
        }
        if (order.size() < pending.size()) {
            Set<T> stuck = new TreeSet<>(nodes);
            order.forEach(stuck::remove);
            throw new CycleException(findCycle(stuck, dependencies));
        }
        return new Sorted<>(order, layers);
    }

    /** Walks dependencies among nodes that are all on or behind a cycle until one repeats. */
    private static <T> List<T> findCycle(Set<T> stuck, Map<T, ? extends Collection<T>> dependencies) {
        T start = stuck.iterator().next();
        Map<T, Integer> positionOnPath = new HashMap<>();
        Deque<T> path = new ArrayDeque<>();
        T current = start;
        while (!positionOnPath.containsKey(current)) {
            positionOnPath.put(current, path.size());
            path.addLast(current);
            T next = null;
            for (T dep : new TreeSet<T>(dependencies.containsKey(current) ? dependencies.get(current) : List.<T>of())) {
                if (stuck.contains(dep)) {
                    next = dep;
                    break;
                }
            }
            if (next == null) {
                throw new IllegalStateException("a node left unsorted has no unsorted dependency: " + current);
            }
            current = next;
        }
        List<T> cycle = new ArrayList<>(path).subList(positionOnPath.get(current), path.size());
        List<T> result = new ArrayList<>(cycle);
        result.add(current);
        return result;
    }
}
