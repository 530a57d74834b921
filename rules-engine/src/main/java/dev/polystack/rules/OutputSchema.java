package dev.polystack.rules;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaException;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.path.NodePath;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A resource type's output schema: a JSON Schema (draft 2020-12 unless it names another dialect in
 * {@code $schema}) that the outputs a runner reports must satisfy. Schemas are never fetched from the
 * network; only the bundled meta-schemas resolve.
 */
public final class OutputSchema {

    private static final SchemaRegistry REGISTRY =
            SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    private static final Schema META_SCHEMA =
            REGISTRY.getSchema(SchemaLocation.of(SpecificationVersion.DRAFT_2020_12.getDialectId()));

    private final JsonNode node;
    private final Schema schema;
    /** Why a stored schema cannot check anything; empty for a usable one. */
    private final List<Violation> unusable;

    private OutputSchema(JsonNode node, Schema schema, List<Violation> unusable) {
        this.node = node;
        this.schema = schema;
        this.unusable = unusable;
    }

    /**
     * A schema that was stored earlier, when fewer schemas were refused: never throws. One that cannot be
     * used any more fails every validation with the reason, instead of failing the caller.
     */
    public static OutputSchema stored(JsonNode node) {
        try {
            return of(node);
        } catch (ValidationException e) {
            List<Violation> reasons = e.violations().stream()
                    .map(v -> new Violation(
                            "",
                            "the resource type's output schema cannot be used (at "
                                    + (v.pointer().isEmpty() ? "/" : v.pointer()) + ": " + v.message()
                                    + "); correct the resource type"))
                    .toList();
            return new OutputSchema(node.deepCopy(), null, reasons);
        }
    }

    /**
     * Compiles a schema.
     *
     * @throws ValidationException naming every place where {@code node} is not a valid JSON Schema
     */
    public static OutputSchema of(JsonNode node) {
        Objects.requireNonNull(node, "node");
        List<Violation> problems = new ArrayList<>();
        if (!node.isObject() && !node.isBoolean()) {
            problems.add(new Violation("", "a JSON Schema must be an object or a boolean"));
            throw new ValidationException(problems);
        }
        // before the meta-schema: its validator recurses, and would follow what is refused here
        List<Violation> structure = SchemaStructure.check(node);
        if (!structure.isEmpty()) {
            throw new UnusableException(structure.stream()
                    .sorted(Comparator.comparing(Violation::pointer))
                    .toList());
        }
        for (Error error : META_SCHEMA.validate(node)) {
            problems.add(violation(error));
        }
        if (!problems.isEmpty()) {
            problems.sort(Comparator.comparing(Violation::pointer));
            throw new ValidationException(problems);
        }
        try {
            return new OutputSchema(node.deepCopy(), REGISTRY.getSchema(node), List.of());
        } catch (SchemaException | IllegalArgumentException e) {
            throw new ValidationException(List.of(new Violation("", "not a usable JSON Schema: " + e.getMessage())));
        }
    }

    public JsonNode node() {
        return node.deepCopy();
    }

    /** The names of the top-level properties the schema declares: the outputs a module must produce or may. */
    public List<String> declaredOutputs() {
        List<String> names = new ArrayList<>();
        JsonNode properties = node.path("properties");
        properties.fieldNames().forEachRemaining(names::add);
        return names;
    }

    /**
     * The outputs the schema speaks of: those it declares in {@code properties} or lists as {@code required}.
     * A module may have more outputs than its type declares; they are kept, but not held to the schema
     * (whose {@code additionalProperties} would otherwise refuse them).
     */
    public JsonNode declaredPart(JsonNode outputs) {
        if (!outputs.isObject()) {
            return outputs;
        }
        Set<String> named = new HashSet<>(declaredOutputs());
        node.path("required").forEach(r -> named.add(r.asText()));
        ObjectNode part = JsonNodeFactory.instance.objectNode();
        outputs.properties().forEach(e -> {
            if (named.contains(e.getKey())) {
                part.set(e.getKey(), e.getValue());
            }
        });
        return part;
    }

    /** Every way {@code outputs} breaks the schema; empty when they satisfy it. */
    public List<Violation> validate(JsonNode outputs) {
        if (!unusable.isEmpty()) {
            return unusable;
        }
        List<Violation> violations = new ArrayList<>();
        for (Error error : schema.validate(outputs)) {
            violations.add(violation(error));
        }
        violations.sort(Comparator.comparing(Violation::pointer));
        return violations;
    }

    private static Violation violation(Error error) {
        String message = error.getMessage();
        // messages start with the instance location, which the pointer already carries
        int colon = message.indexOf(": ");
        if (message.startsWith("$") && colon > 0) {
            message = message.substring(colon + 2);
        }
        return new Violation(pointer(error.getInstanceLocation()), message);
    }

    /** The JSON pointer of a location in the validated document. */
    static String pointer(NodePath path) {
        if (path == null) {
            return "";
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < path.getNameCount(); i++) {
            out.append('/').append(escape(String.valueOf(path.getElement(i))));
        }
        return out.toString();
    }

    private static String escape(String token) {
        return token.replace("~", "~0").replace("/", "~1");
    }

    /** One place where a value breaks a schema. */
    public record Violation(String pointer, String message) {
        @Override
        public String toString() {
            return (pointer.isEmpty() ? "/" : pointer) + ": " + message;
        }
    }

    /**
     * Thrown when a schema is valid JSON Schema but cannot be used to check outputs: nested too deep,
     * with references outside itself, leading nowhere, or in a cycle.
     */
    public static final class UnusableException extends ValidationException {
        public UnusableException(List<Violation> violations) {
            super(violations);
        }
    }

    /** Thrown when a schema itself is not valid. */
    public static class ValidationException extends RuntimeException {
        private final List<Violation> violations;

        public ValidationException(List<Violation> violations) {
            super(violations.stream()
                    .map(Violation::toString)
                    .reduce((a, b) -> a + "; " + b)
                    .orElse("invalid schema"));
            this.violations = List.copyOf(violations);
        }

        public List<Violation> violations() {
            return violations;
        }
    }
}
