package dev.polystack.rules.template;

import com.fasterxml.jackson.databind.JsonNode;
import dev.polystack.rules.Problem;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * Finds and checks the templates inside JSON documents (module inputs, provider configuration,
 * manifest params): every string value is a template.
 */
public final class Placeholders {

    private Placeholders() {}

    /** A template found at a dotted path inside a document. */
    public record Found(String path, Template template) {}

    /**
     * Parses every string in {@code document} and checks its references for {@code usage}; problems
     * are reported at {@code basePath} plus the path to the string and the position in it.
     */
    public static List<Found> scan(JsonNode document, String basePath, Usage usage, List<Problem> problems) {
        List<Found> found = new ArrayList<>();
        walk(document, basePath, (path, text) -> {
            try {
                Template template = Template.parse(text);
                if (template.hasPlaceholders()) {
                    for (Segment.Placeholder placeholder : template.placeholders()) {
                        String problem = check(placeholder.reference(), usage);
                        if (problem != null) {
                            problems.add(new Problem(path, problem + " (at position " + placeholder.position() + ")"));
                        }
                    }
                    found.add(new Found(path, template));
                }
            } catch (TemplateException e) {
                problems.add(new Problem(path, "invalid placeholder: " + e.getMessage()));
            }
        });
        return found;
    }

    /** Why a reference may not be used here, or null when it may. */
    public static String check(Reference reference, Usage usage) {
        switch (reference.root()) {
            case "context" -> {
                String field = reference.fieldAt(0);
                if (reference.path().size() != 1 || field == null) {
                    return "`${" + reference.text() + "}` must name one context field, such as ${context.env_id}";
                }
                if (Usage.ENVIRONMENT_FIELDS.contains(field)) {
                    return null;
                }
                if (Usage.RESOURCE_FIELDS.contains(field)) {
                    return usage.allowsResourceContext()
                            ? null
                            : "`${context." + field
                                    + "}` is only available in module inputs and provider configuration";
                }
                return "unknown context field `" + field + "`; use org_id, project_id, env_id, env_type_id"
                        + (usage.allowsResourceContext() ? ", res_type, res_class or res_id" : "");
            }
            case "resources", "shared" -> {
                if ("shared".equals(reference.root()) && !usage.allowsShared()) {
                    return "`${shared...}` is only available in manifests; reference a module dependency as ${resources.<alias>.outputs...}";
                }
                if (reference.fieldAt(0) == null
                        || !"outputs".equals(reference.fieldAt(1))
                        || reference.path().size() < 3) {
                    return "`${" + reference.text() + "}` must have the form ${" + reference.root()
                            + ".<alias>.outputs.<name>}";
                }
                return null;
            }
            default -> {
                return "unknown reference root `" + reference.root() + "`; use context, resources"
                        + (usage.allowsShared() ? " or shared" : "");
            }
        }
    }

    /** Calls {@code visitor} with the dotted path and text of every string in a document. */
    public static void walk(JsonNode node, String path, BiConsumer<String, String> visitor) {
        if (node == null) {
            return;
        }
        if (node.isTextual()) {
            visitor.accept(path, node.textValue());
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                walk(node.get(i), path + "[" + i + "]", visitor);
            }
        } else if (node.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                walk(field.getValue(), join(path, field.getKey()), visitor);
            }
        }
    }

    /** Appends a key to a dotted path, quoting keys that are not plain names. */
    public static String join(String path, String key) {
        String step = TemplateParser.isIdentifier(key) ? key : "[\"" + key.replace("\"", "\\\"") + "\"]";
        if (path.isEmpty()) {
            return step;
        }
        return step.startsWith("[") ? path + step : path + "." + step;
    }
}
