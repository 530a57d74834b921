package dev.polystack.rules;

import com.fasterxml.jackson.databind.JsonNode;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a schema must not contain even when the meta-schema accepts it, because validating outputs
 * against it could not end or would fetch something: nesting past {@link #MAX_DEPTH}, references
 * outside the schema, references that lead nowhere, and reference cycles (a validator follows them
 * recursively). Walks the tree with its own stack, so a deep schema cannot exhaust the thread's.
 */
final class SchemaStructure {

    static final int MAX_DEPTH = 64;
    static final int MAX_REFERENCES = 1_000;

    private static final List<String> REFERENCE_KEYWORDS = List.of("$ref", "$dynamicRef", "$recursiveRef");

    private SchemaStructure() {}

    /** A reference: where its keyword is, the schema that holds it, and the pointer of its target. */
    private record Reference(String at, String holder, String value, String target) {}

    private record Visit(JsonNode node, String pointer, int depth) {}

    static List<OutputSchema.Violation> check(JsonNode root) {
        List<OutputSchema.Violation> violations = new ArrayList<>();
        List<Reference> references = new ArrayList<>();
        Map<String, String> anchors = new HashMap<>();
        Deque<Visit> stack = new ArrayDeque<>();
        stack.push(new Visit(root, "", 0));
        while (!stack.isEmpty()) {
            Visit visit = stack.pop();
            if (visit.depth() > MAX_DEPTH) {
                return List.of(new OutputSchema.Violation(
                        visit.pointer(), "the schema is nested deeper than " + MAX_DEPTH + " levels"));
            }
            JsonNode node = visit.node();
            if (node.isObject()) {
                for (String keyword : REFERENCE_KEYWORDS) {
                    if (node.path(keyword).isTextual()) {
                        references.add(new Reference(
                                visit.pointer() + "/" + escape(keyword),
                                visit.pointer(),
                                node.get(keyword).asText(),
                                null));
                    }
                }
                for (String keyword : List.of("$anchor", "$dynamicAnchor")) {
                    if (node.path(keyword).isTextual()) {
                        anchors.putIfAbsent(node.get(keyword).asText(), visit.pointer());
                    }
                }
                if (!visit.pointer().isEmpty() && node.has("$id")) {
                    violations.add(
                            new OutputSchema.Violation(
                                    visit.pointer() + "/$id",
                                    "schemas embedded with their own $id are not supported; use $defs and references starting with #"));
                }
                node.properties()
                        .forEach(e -> stack.push(new Visit(
                                e.getValue(), visit.pointer() + "/" + escape(e.getKey()), visit.depth() + 1)));
            } else if (node.isArray()) {
                for (int i = node.size() - 1; i >= 0; i--) {
                    stack.push(new Visit(node.get(i), visit.pointer() + "/" + i, visit.depth() + 1));
                }
            }
        }
        if (references.size() > MAX_REFERENCES) {
            violations.add(
                    new OutputSchema.Violation("", "the schema has more than " + MAX_REFERENCES + " references"));
            return violations;
        }
        List<Reference> resolved = new ArrayList<>();
        for (Reference reference : references) {
            String value = reference.value();
            if (!value.startsWith("#")) {
                violations.add(new OutputSchema.Violation(
                        reference.at(),
                        "`" + value + "` is not a reference within this schema: "
                                + "only references starting with # are allowed, nothing is fetched from elsewhere"));
                continue;
            }
            String target = target(root, value.substring(1), anchors);
            if (target == null) {
                violations.add(
                        new OutputSchema.Violation(reference.at(), "`" + value + "` refers to nothing in this schema"));
                continue;
            }
            resolved.add(new Reference(reference.at(), reference.holder(), value, target));
        }
        violations.addAll(cycles(resolved));
        return violations;
    }

    /** The pointer a fragment names (a JSON pointer, or an anchor), or null when there is no such place. */
    private static String target(JsonNode root, String fragment, Map<String, String> anchors) {
        if (fragment.isEmpty()) {
            return "";
        }
        if (!fragment.startsWith("/")) {
            return anchors.get(fragment);
        }
        String pointer = URLDecoder.decode(fragment.replace("+", "%2B"), StandardCharsets.UTF_8);
        try {
            return root.at(pointer).isMissingNode() ? null : pointer;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * References that can lead back to themselves: evaluating the target of one evaluates every
     * reference inside the target's subtree.
     */
    private static List<OutputSchema.Violation> cycles(List<Reference> references) {
        int count = references.size();
        List<List<Integer>> next = new ArrayList<>(count);
        for (Reference from : references) {
            List<Integer> reached = new ArrayList<>();
            for (int j = 0; j < count; j++) {
                if (within(references.get(j).holder(), from.target())) {
                    reached.add(j);
                }
            }
            next.add(reached);
        }
        List<OutputSchema.Violation> violations = new ArrayList<>();
        int[] state = new int[count]; // 0 unvisited, 1 on the current path, 2 done
        for (int start = 0; start < count; start++) {
            if (state[start] != 0) {
                continue;
            }
            // iterative depth-first search; a reference met again on the current path closes a cycle
            Deque<int[]> path = new ArrayDeque<>();
            path.push(new int[] {start, 0});
            state[start] = 1;
            while (!path.isEmpty()) {
                int[] top = path.peek();
                List<Integer> edges = next.get(top[0]);
                if (top[1] < edges.size()) {
                    int to = edges.get(top[1]++);
                    if (state[to] == 1) {
                        Reference closing = references.get(to);
                        violations.add(new OutputSchema.Violation(
                                closing.at(),
                                "`" + closing.value()
                                        + "` is part of a reference cycle: recursive schemas are not supported"));
                    } else if (state[to] == 0) {
                        state[to] = 1;
                        path.push(new int[] {to, 0});
                    }
                } else {
                    state[top[0]] = 2;
                    path.pop();
                }
            }
        }
        return violations.stream().distinct().toList();
    }

    /** Whether a pointer is the given one or below it. */
    private static boolean within(String pointer, String ancestor) {
        return pointer.equals(ancestor) || ancestor.isEmpty() || pointer.startsWith(ancestor + "/");
    }

    private static String escape(String token) {
        return token.replace("~", "~0").replace("/", "~1");
    }
}
