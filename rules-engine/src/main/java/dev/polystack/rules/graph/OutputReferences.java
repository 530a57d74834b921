package dev.polystack.rules.graph;

import com.fasterxml.jackson.databind.JsonNode;
import dev.polystack.rules.template.PathElement;
import dev.polystack.rules.template.Reference;

import java.util.ArrayList;
import java.util.List;

/**
 * Checks a reference to another resource's outputs ({@code ${resources.<alias>.outputs.<name>...}}) against
 * the output schema of that resource's type: the output must be declared, and a path below it must fit
 * the declared shape (an index only into a list, a field only into an object). Where the schema does
 * not say (no {@code type}, {@code $ref}, {@code anyOf}, ...), anything below is accepted.
 */
public final class OutputReferences {

    private OutputReferences() {}

    /**
     * What is wrong with the reference, or null when it may be used.
     *
     * @param reference a reference whose first field names a resource of {@code type}
     */
    public static String problem(Reference reference, ResourceTypeSpec type) {
        List<PathElement> path = reference.path();
        String text = "`${" + reference.text() + "}`";
        if (path.size() < 3 || !"outputs".equals(reference.fieldAt(1)) || reference.fieldAt(2) == null) {
            return text + " must name an output: ${" + reference.root() + "."
                    + (reference.fieldAt(0) == null ? "<alias>" : reference.fieldAt(0)) + ".outputs.<name>}";
        }
        String output = reference.fieldAt(2);
        JsonNode schema = type.outputSchema();
        JsonNode properties = schema == null ? null : schema.get("properties");
        if (properties == null || !properties.isObject() || !properties.has(output)) {
            List<String> declared = new ArrayList<>();
            if (properties != null) {
                properties.fieldNames().forEachRemaining(declared::add);
            }
            return text + ": resource type `" + type.id() + "` declares no output `" + output + "` ("
                    + (declared.isEmpty()
                            ? "it declares no outputs; give it an output schema with `" + output + "` in its properties"
                            : "it declares "
                                    + String.join(
                                            ", ", declared.stream().sorted().toList()))
                    + ")";
        }
        JsonNode current = properties.get(output);
        StringBuilder where = new StringBuilder(output);
        for (PathElement element : path.subList(3, path.size())) {
            String kind = kindOf(current);
            if (kind == null) {
                return null;
            }
            if (element instanceof PathElement.Index index) {
                if (!kind.equals("array")) {
                    return text + ": `" + where + "` is " + article(kind) + ", not a list";
                }
                JsonNode prefix = current.path("prefixItems");
                current = prefix.isArray() && index.index() < prefix.size()
                        ? prefix.get(index.index())
                        : current.get("items");
                where.append('[').append(index.index()).append(']');
            } else {
                String field = ((PathElement.Field) element).name();
                if (!kind.equals("object")) {
                    return text + ": `" + where + "` is " + article(kind) + ", not an object with `" + field + "`";
                }
                JsonNode fields = current.path("properties");
                JsonNode additional = current.get("additionalProperties");
                if (fields.has(field)) {
                    current = fields.get(field);
                } else if (additional != null && additional.isBoolean() && !additional.asBoolean()) {
                    return text + ": `" + where + "` has no field `" + field + "`";
                } else {
                    current = additional != null && additional.isObject() ? additional : null;
                }
                where.append('.').append(field);
            }
            if (current == null) {
                return null;
            }
        }
        return null;
    }

    /** The one JSON type a schema allows, or null when it does not say exactly. */
    private static String kindOf(JsonNode schema) {
        if (schema == null
                || !schema.isObject()
                || schema.has("$ref")
                || schema.has("anyOf")
                || schema.has("oneOf")
                || schema.has("allOf")) {
            return null;
        }
        JsonNode type = schema.get("type");
        return type != null && type.isTextual() ? type.asText() : null;
    }

    private static String article(String kind) {
        return switch (kind) {
            case "array" -> "a list";
            case "object" -> "an object";
            case "integer", "number" -> "a number";
            case "null" -> "null";
            default -> "a " + kind;
        };
    }
}
