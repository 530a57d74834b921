package dev.polystack.platform.common;

import com.fasterxml.jackson.databind.JsonNode;
import dev.polystack.platform.common.problem.PlatformException;
import dev.polystack.platform.common.problem.ProblemDetail;
import dev.polystack.platform.common.problem.ProblemType;
import dev.polystack.rules.Problem;
import dev.polystack.rules.template.Placeholders;
import dev.polystack.rules.template.Segment;
import dev.polystack.rules.template.Usage;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Checks the placeholders in configuration documents with the rules engine, as 400 problems. */
public final class TemplateChecks {

    private TemplateChecks() {
    }

    /**
     * Checks every template in each top-level value of {@code document}; with {@code aliases} given,
     * {@code ${resources.<alias>...}} must name one of them.
     *
     * @param field the body field, e.g. {@code module_inputs}
     */
    public static void check(JsonNode document, String field, Usage usage, Set<String> aliases) {
        List<ProblemDetail.FieldError> errors = new ArrayList<>();
        if (document != null && document.isObject()) {
            for (Map.Entry<String, JsonNode> entry : document.properties()) {
                String pointer = "/" + field + "/" + entry.getKey().replace("~", "~0").replace("/", "~1");
                List<Problem> problems = new ArrayList<>();
                for (Placeholders.Found found : Placeholders.scan(entry.getValue(), "", usage, problems)) {
                    for (Segment.Placeholder placeholder : found.template().placeholders()) {
                        var reference = placeholder.reference();
                        if (aliases != null && "resources".equals(reference.root()) && reference.fieldAt(0) != null
                                && !aliases.contains(reference.fieldAt(0))) {
                            problems.add(new Problem(found.path(), "`${" + reference.text() + "}` names no dependency; "
                                    + "declare `" + reference.fieldAt(0) + "` in dependencies"));
                        }
                    }
                }
                problems.forEach(p -> errors.add(new ProblemDetail.FieldError(pointer, p.toString())));
            }
        }
        if (!errors.isEmpty()) {
            throw new PlatformException(ProblemType.VALIDATION,
                    String.join("; ", errors.stream().map(e -> e.pointer() + ": " + e.detail()).toList()), errors);
        }
    }
}
