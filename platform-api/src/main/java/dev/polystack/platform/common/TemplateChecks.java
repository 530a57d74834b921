package dev.polystack.platform.common;

import com.fasterxml.jackson.databind.JsonNode;
import dev.polystack.platform.common.problem.PlatformException;
import dev.polystack.platform.common.problem.ProblemDetail;
import dev.polystack.platform.common.problem.ProblemType;
import dev.polystack.rules.Problem;
import dev.polystack.rules.graph.OutputReferences;
import dev.polystack.rules.graph.ResourceTypeSpec;
import dev.polystack.rules.template.Placeholders;
import dev.polystack.rules.template.Segment;
import dev.polystack.rules.template.Usage;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Checks the placeholders in configuration documents with the rules engine, as 400 problems. */
public final class TemplateChecks {

    private TemplateChecks() {}

    /**
     * Checks every template in each top-level value of {@code document}; with {@code dependencies} given,
     * {@code ${resources.<alias>.outputs.<name>...}} must name one of them and an output its resource type
     * declares, with a path that fits the output's declared shape.
     *
     * @param field        the body field, e.g. {@code module_inputs}
     * @param dependencies the resource type of each dependency alias, or null when references are not allowed
     */
    public static void check(JsonNode document, String field, Usage usage, Map<String, ResourceTypeSpec> dependencies) {
        List<ProblemDetail.FieldError> errors = new ArrayList<>();
        boolean syntax = false;
        if (document != null && document.isObject()) {
            for (Map.Entry<String, JsonNode> entry : document.properties()) {
                String pointer =
                        "/" + field + "/" + entry.getKey().replace("~", "~0").replace("/", "~1");
                List<Problem> problems = new ArrayList<>();
                List<Placeholders.Found> templates = Placeholders.scan(entry.getValue(), "", usage, problems);
                syntax |= !problems.isEmpty();
                for (Placeholders.Found found : templates) {
                    for (Segment.Placeholder placeholder : found.template().placeholders()) {
                        var reference = placeholder.reference();
                        if (dependencies == null
                                || !"resources".equals(reference.root())
                                || reference.fieldAt(0) == null) {
                            continue;
                        }
                        ResourceTypeSpec type = dependencies.get(reference.fieldAt(0));
                        String problem = type == null
                                ? "`${" + reference.text() + "}` names no dependency; declare `" + reference.fieldAt(0)
                                        + "` in dependencies"
                                : OutputReferences.problem(reference, type);
                        if (problem != null) {
                            problems.add(new Problem(found.path(), problem));
                        }
                    }
                }
                problems.forEach(p -> errors.add(new ProblemDetail.FieldError(pointer, p.toString())));
            }
        }
        if (!errors.isEmpty()) {
            // a template that cannot be read is a bad request; one that names what does not exist does not fit
            throw new PlatformException(
                    syntax || dependencies == null ? ProblemType.VALIDATION : ProblemType.UNPROCESSABLE,
                    String.join(
                            "; ",
                            errors.stream()
                                    .map(e -> e.pointer() + ": " + e.detail())
                                    .toList()),
                    errors);
        }
    }
}
