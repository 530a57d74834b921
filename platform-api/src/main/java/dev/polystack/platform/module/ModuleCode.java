package dev.polystack.platform.module;

import com.fasterxml.jackson.databind.JsonNode;
import dev.polystack.platform.common.problem.PlatformException;
import dev.polystack.platform.common.problem.ProblemDetail;
import dev.polystack.platform.common.problem.ProblemType;
import dev.polystack.rules.graph.ResourceTypeSpec;
import dev.polystack.rules.module.ModuleInterface;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Checks a module version's inline code when it is saved: that it is HCL (or JSON) OpenTofu would load,
 * that every input, param and secret input names one of its variables, that every variable without a
 * default gets a value, and that it has the outputs its resource type requires. Everything wrong is
 * one 422 with each problem at its field, and for the code with its line and column.
 */
final class ModuleCode {

    private static final String CODE = "/module_source_code";

    private ModuleCode() {}

    static ModuleInterfaceView check(
            ModuleDefinition definition, Set<String> secretInputs, ResourceTypeSpec resourceType) {
        if (!definition.isInline()) {
            return ModuleInterfaceView.notChecked(
                    "`" + definition.moduleSource() + "` is fetched by the runner, not read by the"
                            + " control plane: its variables and outputs were not checked");
        }
        ModuleInterface code;
        try {
            code = ModuleInterface.read(definition.moduleSourceCode());
        } catch (ModuleInterface.InvalidModuleException e) {
            List<ProblemDetail.FieldError> errors = e.problems().stream()
                    .map(p -> new ProblemDetail.FieldError(
                            CODE,
                            p.toString(),
                            null,
                            p.line() > 0 ? p.line() : null,
                            p.column() > 0 ? p.column() : null))
                    .toList();
            throw new PlatformException(
                    ProblemType.UNPROCESSABLE,
                    "module_source_code is not a module OpenTofu would load: "
                            + e.problems().get(0)
                            + (errors.size() > 1 ? " (and " + (errors.size() - 1) + " more)" : ""),
                    errors);
        }
        List<ProblemDetail.FieldError> errors = new ArrayList<>();
        String known = code.variables().isEmpty()
                ? "it declares no variables"
                : "its variables are " + String.join(", ", code.variables().keySet());
        Set<String> given = new TreeSet<>();
        definition
                .moduleInputs()
                .fieldNames()
                .forEachRemaining(name -> given.add(name(name, "/module_inputs/", code, known, errors)));
        definition
                .moduleParams()
                .fieldNames()
                .forEachRemaining(name -> given.add(name(name, "/module_params/", code, known, errors)));
        secretInputs.forEach(name -> given.add(name(name, "/secret_inputs/", code, known, errors)));
        for (ModuleInterface.Variable variable : code.variables().values()) {
            if (!variable.required()) {
                continue;
            }
            JsonNode param = definition.moduleParams().get(variable.name());
            if (param != null && param.path("is_optional").asBoolean(false)) {
                errors.add(new ProblemDetail.FieldError(
                        "/module_params/" + variable.name(),
                        "is optional, but variable `" + variable.name()
                                + "` has no default: make the param required or give the variable a default"));
            } else if (!given.contains(variable.name())) {
                errors.add(new ProblemDetail.FieldError(
                        CODE,
                        "variable `" + variable.name() + "` has no default and gets no value:"
                                + " set it in module_inputs, module_params or secret_inputs, or give it a default"));
            }
        }
        for (String output : requiredOutputs(resourceType)) {
            if (!code.outputs().containsKey(output)) {
                errors.add(new ProblemDetail.FieldError(
                        CODE,
                        "resource type `" + resourceType.id() + "` requires output `" + output
                                + "`, which the module does not declare"));
            }
        }
        if (!errors.isEmpty()) {
            throw new PlatformException(
                    ProblemType.UNPROCESSABLE,
                    String.join(
                            "; ",
                            errors.stream()
                                    .map(e -> e.pointer() + ": " + e.detail())
                                    .toList()),
                    errors);
        }
        return new ModuleInterfaceView(
                true,
                null,
                code.variables().values().stream()
                        .map(v -> new ModuleInterfaceView.Variable(
                                v.name(), v.type(), v.required(), v.sensitive(), v.description()))
                        .toList(),
                code.outputs().values().stream()
                        .map(o -> new ModuleInterfaceView.Output(o.name(), o.sensitive(), o.description()))
                        .toList());
    }

    private static String name(
            String name, String pointer, ModuleInterface code, String known, List<ProblemDetail.FieldError> errors) {
        if (!code.variables().containsKey(name)) {
            errors.add(new ProblemDetail.FieldError(
                    pointer + name, "the module has no variable `" + name + "`; " + known));
        }
        return name;
    }

    private static List<String> requiredOutputs(ResourceTypeSpec type) {
        List<String> required = new ArrayList<>();
        JsonNode schema = type.outputSchema();
        if (schema != null && schema.path("required").isArray()) {
            schema.path("required").forEach(r -> required.add(r.asText()));
        }
        return required;
    }
}
