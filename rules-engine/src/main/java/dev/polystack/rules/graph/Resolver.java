package dev.polystack.rules.graph;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.polystack.rules.ResourceIdentity;
import dev.polystack.rules.RulesException;
import dev.polystack.rules.matching.EnvironmentContext;
import dev.polystack.rules.template.PathElement;
import dev.polystack.rules.template.Reference;
import dev.polystack.rules.template.Segment;
import dev.polystack.rules.template.Template;

import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Replaces placeholders with values. A whole-value placeholder keeps the JSON type of what it refers
 * to; a placeholder inside a longer string is rendered as text (strings as they are, other values as
 * JSON). A value that uses a sensitive output is sensitive. Stateless and thread-safe.
 */
public final class Resolver {

    private Resolver() {}

    /**
     * Resolves a node once its dependencies have finished.
     *
     * @param outputs the outputs of finished resources; {@code null} for a resource not finished yet
     * @param lenient when true, values whose references cannot be resolved yet are reported in
     *                {@link Resolution#unknown()} instead of failing (for previews)
     * @throws RulesException when not lenient and a reference cannot be resolved
     */
    public static Resolution resolve(
            GraphNode node,
            EnvironmentContext environment,
            Function<ResourceIdentity, Outputs> outputs,
            boolean lenient) {
        Map<String, String> context = context(environment, node.identity());
        Set<String> sensitiveInputs = new HashSet<>();
        Set<String> unknown = new HashSet<>();
        ObjectNode inputs = JsonNodeFactory.instance.objectNode();

        Map<String, ResourceIdentity> dependencyNames = new TreeMap<>();
        node.dependencies().forEach((alias, identity) -> dependencyNames.put("resources." + alias, identity));
        Lookup moduleLookup = new Lookup(context, dependencyNames, outputs, node.path());
        for (Iterator<Map.Entry<String, JsonNode>> it = node.module().inputs().fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> input = it.next();
            resolveInto(
                    inputs,
                    input.getKey(),
                    input.getValue(),
                    moduleLookup,
                    lenient,
                    sensitiveInputs,
                    unknown,
                    input.getKey());
        }
        Lookup paramLookup = new Lookup(
                Map.of(
                        "org_id",
                        environment.orgId(),
                        "project_id",
                        environment.projectId(),
                        "env_id",
                        environment.envId(),
                        "env_type_id",
                        environment.envTypeId()),
                node.manifestReferences(),
                outputs,
                node.path());
        for (Iterator<Map.Entry<String, JsonNode>> it = node.params().fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> param = it.next();
            resolveInto(
                    inputs,
                    param.getKey(),
                    param.getValue(),
                    paramLookup,
                    lenient,
                    sensitiveInputs,
                    unknown,
                    param.getKey());
        }

        Map<String, ObjectNode> providers = new TreeMap<>();
        Set<String> sensitiveProviderFields = new HashSet<>();
        node.providers().forEach((localName, binding) -> {
            ObjectNode configuration = JsonNodeFactory.instance.objectNode();
            Set<String> sensitiveFields = new HashSet<>();
            Set<String> unknownFields = new HashSet<>();
            for (Iterator<Map.Entry<String, JsonNode>> it =
                            binding.configuration().fields();
                    it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                resolveInto(
                        configuration,
                        field.getKey(),
                        field.getValue(),
                        moduleLookup,
                        lenient,
                        sensitiveFields,
                        unknownFields,
                        field.getKey());
            }
            sensitiveFields.forEach(f -> sensitiveProviderFields.add(localName + "." + f));
            unknownFields.forEach(f -> unknown.add(localName + "." + f));
            providers.put(localName, configuration);
        });
        return new Resolution(inputs, sensitiveInputs, providers, sensitiveProviderFields, unknown);
    }

    /** Resolves a workload's outputs once the resources they reference have finished. */
    public static Resolution resolveOutputs(
            ResourceGraph.WorkloadOutputs workloadOutputs,
            EnvironmentContext environment,
            Function<ResourceIdentity, Outputs> outputs,
            boolean lenient) {
        Lookup lookup = new Lookup(
                Map.of(
                        "org_id",
                        environment.orgId(),
                        "project_id",
                        environment.projectId(),
                        "env_id",
                        environment.envId(),
                        "env_type_id",
                        environment.envTypeId()),
                workloadOutputs.references(),
                outputs,
                "outputs");
        ObjectNode resolved = JsonNodeFactory.instance.objectNode();
        Set<String> sensitive = new HashSet<>();
        Set<String> unknown = new HashSet<>();
        for (Iterator<Map.Entry<String, JsonNode>> it =
                        workloadOutputs.outputs().fields();
                it.hasNext(); ) {
            Map.Entry<String, JsonNode> output = it.next();
            resolveInto(
                    resolved, output.getKey(), output.getValue(), lookup, lenient, sensitive, unknown, output.getKey());
        }
        return new Resolution(resolved, sensitive, Map.of(), Set.of(), unknown);
    }

    private static Map<String, String> context(EnvironmentContext environment, ResourceIdentity identity) {
        return Map.of(
                "org_id",
                environment.orgId(),
                "project_id",
                environment.projectId(),
                "env_id",
                environment.envId(),
                "env_type_id",
                environment.envTypeId(),
                "res_type",
                identity.type(),
                "res_class",
                identity.resourceClass(),
                "res_id",
                identity.id());
    }

    private static void resolveInto(
            ObjectNode target,
            String name,
            JsonNode value,
            Lookup lookup,
            boolean lenient,
            Set<String> sensitive,
            Set<String> unknown,
            String key) {
        Evaluation evaluation = new Evaluation(lookup, lenient);
        JsonNode resolved = evaluation.value(value);
        target.set(name, resolved);
        if (evaluation.sensitive) {
            sensitive.add(key);
        }
        if (evaluation.unknown) {
            unknown.add(key);
        }
    }

    /** Evaluates one value (recursively), remembering whether it touched sensitive or unknown data. */
    private static final class Evaluation {
        private final Lookup lookup;
        private final boolean lenient;
        boolean sensitive;
        boolean unknown;

        Evaluation(Lookup lookup, boolean lenient) {
            this.lookup = lookup;
            this.lenient = lenient;
        }

        JsonNode value(JsonNode value) {
            if (value.isTextual()) {
                return text(value.textValue());
            }
            if (value.isArray()) {
                ArrayNode array = JsonNodeFactory.instance.arrayNode();
                value.forEach(element -> array.add(value(element)));
                return array;
            }
            if (value.isObject()) {
                ObjectNode object = JsonNodeFactory.instance.objectNode();
                value.fields().forEachRemaining(e -> object.set(e.getKey(), value(e.getValue())));
                return object;
            }
            return value.deepCopy();
        }

        private JsonNode text(String text) {
            Template template = Template.parse(text);
            if (!template.hasPlaceholders()) {
                return TextNode.valueOf(
                        template.segments().isEmpty()
                                ? ""
                                : ((Segment.Literal) template.segments().get(0)).text());
            }
            if (template.isWholeValue()) {
                JsonNode resolved =
                        lookup(((Segment.Placeholder) template.segments().get(0)).reference());
                return resolved == null ? TextNode.valueOf(text) : resolved;
            }
            StringBuilder out = new StringBuilder();
            for (Segment segment : template.segments()) {
                if (segment instanceof Segment.Literal literal) {
                    out.append(literal.text());
                } else {
                    JsonNode resolved = lookup(((Segment.Placeholder) segment).reference());
                    if (resolved == null) {
                        return TextNode.valueOf(text);
                    }
                    out.append(
                            resolved.isTextual() ? resolved.textValue() : resolved.isNull() ? "" : resolved.toString());
                }
            }
            return TextNode.valueOf(out.toString());
        }

        private JsonNode lookup(Reference reference) {
            try {
                Lookup.Found found = lookup.find(reference);
                sensitive |= found.sensitive();
                return found.value();
            } catch (Lookup.NotYet e) {
                if (!lenient) {
                    throw new RulesException(lookup.path(), e.getMessage());
                }
                unknown = true;
                return null;
            }
        }
    }

    /** What names mean while resolving one document. */
    private record Lookup(
            Map<String, String> context,
            Map<String, ResourceIdentity> names,
            Function<ResourceIdentity, Outputs> outputs,
            String path) {

        record Found(JsonNode value, boolean sensitive) {}

        static final class NotYet extends RuntimeException {
            NotYet(String message) {
                super(message, null, false, false);
            }
        }

        Found find(Reference reference) {
            if ("context".equals(reference.root())) {
                String value = context.get(reference.fieldAt(0));
                if (value == null) {
                    throw new RulesException(path, "`${" + reference.text() + "}` is not available here");
                }
                return new Found(TextNode.valueOf(value), false);
            }
            String alias = reference.fieldAt(0);
            ResourceIdentity target = names.get(reference.root() + "." + alias);
            if (target == null) {
                throw new RulesException(path, "unknown reference `${" + reference.text() + "}`");
            }
            Outputs finished = outputs.apply(target);
            if (finished == null) {
                throw new NotYet("the outputs of " + target + " are not known yet");
            }
            String outputName = reference.fieldAt(2);
            if (!"outputs".equals(reference.fieldAt(1)) || outputName == null) {
                throw new RulesException(
                        path,
                        "`${" + reference.text() + "}` must name an output: ${" + reference.root() + "." + alias
                                + ".outputs.<name>}");
            }
            JsonNode value = finished.values().get(outputName);
            if (value == null) {
                throw new RulesException(
                        path, "`${" + reference.text() + "}`: " + target + " has no output `" + outputName + "`");
            }
            for (PathElement element :
                    reference.path().subList(3, reference.path().size())) {
                JsonNode next = element instanceof PathElement.Index index
                        ? value.get(index.index())
                        : value.get(((PathElement.Field) element).name());
                if (next == null) {
                    throw new RulesException(
                            path,
                            "`${" + reference.text() + "}`: the output of " + target + " has nothing at that path");
                }
                value = next;
            }
            return new Found(value.deepCopy(), finished.sensitive().contains(outputName));
        }
    }
}
