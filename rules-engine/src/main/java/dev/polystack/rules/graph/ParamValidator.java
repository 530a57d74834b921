package dev.polystack.rules.graph;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.polystack.rules.Problem;
import dev.polystack.rules.template.Template;
import dev.polystack.rules.template.TemplateException;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Checks params against a module's params: each known, each required one given, each of its type.
 * A param that is a whole-value placeholder gets its type only when resolved, so it passes here; one
 * with embedded placeholders is a string.
 */
public final class ParamValidator {

    private ParamValidator() {}

    public static List<Problem> validate(ObjectNode params, ModuleSpec module, String path) {
        List<Problem> problems = new ArrayList<>();
        for (Map.Entry<String, JsonNode> param : params.properties()) {
            ParamSpec spec = module.params().get(param.getKey());
            String paramPath = path + "." + param.getKey();
            if (spec == null) {
                problems.add(new Problem(
                        paramPath,
                        "unknown param; module `" + module.id() + "` takes "
                                + (module.params().isEmpty()
                                        ? "no params"
                                        : String.join(
                                                ", ",
                                                new TreeSet<>(module.params().keySet())))));
                continue;
            }
            JsonNode value = param.getValue();
            if (value.isTextual() && isWholePlaceholder(value.textValue())) {
                continue;
            }
            if (!spec.type().accepts(value)) {
                problems.add(new Problem(paramPath, "expected " + spec.type().describe() + ", got " + describe(value)));
            }
        }
        for (Map.Entry<String, ParamSpec> spec : new TreeMap<>(module.params()).entrySet()) {
            if (!spec.getValue().optional() && !params.has(spec.getKey())) {
                problems.add(new Problem(
                        path + "." + spec.getKey(),
                        "is required by module `" + module.id() + "` ("
                                + spec.getValue().type().describe() + ")"));
            }
        }
        return problems;
    }

    private static boolean isWholePlaceholder(String text) {
        try {
            return Template.parse(text).isWholeValue();
        } catch (TemplateException e) {
            return false;
        }
    }

    static String describe(JsonNode value) {
        return switch (value.getNodeType()) {
            case STRING -> "a string";
            case NUMBER -> "a number";
            case BOOLEAN -> "a boolean";
            case ARRAY -> "a list";
            case OBJECT, POJO -> "a map";
            case NULL -> "null";
            default -> "something else";
        };
    }
}
