package dev.polystack.rules.score;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.polystack.rules.Identifiers;
import dev.polystack.rules.OutputSchema;
import dev.polystack.rules.Problem;
import dev.polystack.rules.RulesException;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns Score workload files (score.dev, {@code score.dev/v1b1}) into a Polystack manifest.
 * <ul>
 *   <li>Each file is checked against the Score JSON schema first.</li>
 *   <li>The workload becomes {@code workloads.<metadata.name>}, with a resource {@code workload} of the
 *       given type whose params are the file's {@code metadata}, {@code containers} and {@code service}.</li>
 *   <li>A Score resource without an {@code id} becomes a resource of that workload (type, class, params);
 *       one with an {@code id} becomes a shared resource, so that workloads naming the same type, class
 *       and id share it, as Score says they do.</li>
 *   <li>{@code ${metadata.KEY}} is replaced by the value; {@code ${resources.NAME.KEY}} becomes
 *       {@code ${resources.NAME.outputs.KEY}} (or {@code ${shared.ALIAS.outputs.KEY}}).</li>
 * </ul>
 * What has no place in a manifest is refused, naming where it is: resource {@code metadata}
 * (annotations), the {@code $${...}} escape and other placeholders.
 */
public final class ScoreConverter {

    public static final String DEFAULT_WORKLOAD_TYPE = "score-workload";
    /** The alias of the workload's own resource in the manifest. */
    public static final String WORKLOAD_ALIAS = "workload";

    private static final ObjectMapper YAML = new ObjectMapper(YAMLFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build());
    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([^}]*)}");
    private static final OutputSchema SCHEMA = loadSchema();

    private ScoreConverter() {}

    /** The Score files of a YAML stream, one per document (JSON is YAML too). */
    public static List<JsonNode> read(String text) {
        List<JsonNode> documents = new ArrayList<>();
        try (MappingIterator<JsonNode> iterator = YAML.readerFor(JsonNode.class).readValues(text == null ? "" : text)) {
            while (iterator.hasNextValue()) {
                JsonNode document = iterator.nextValue();
                // an empty document (a trailing ---) reads as null or as an empty string
                if (document != null
                        && !document.isNull()
                        && !document.isMissingNode()
                        && !(document.isTextual() && document.asText().isBlank())) {
                    documents.add(document);
                }
            }
        } catch (JsonProcessingException e) {
            var location = e.getLocation();
            throw new RulesException(
                    "",
                    "the Score file cannot be read"
                            + (location == null
                                    ? ""
                                    : " at line " + location.getLineNr() + ", column " + location.getColumnNr())
                            + ": " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (RuntimeException e) {
            // Jackson's iterator wraps parse errors of later documents
            Throwable cause = e.getCause();
            if (cause instanceof JsonProcessingException processing) {
                throw new RulesException("", "the Score file cannot be read: " + processing.getOriginalMessage());
            }
            throw e;
        }
        if (documents.isEmpty()) {
            throw new RulesException("", "there is no Score workload in the body");
        }
        return documents;
    }

    /**
     * The manifest for the workloads.
     *
     * @throws RulesException naming, as {@code <document>/<json pointer>}, everything that is not valid
     *                        Score or has no place in a manifest
     */
    public static ObjectNode convert(List<JsonNode> workloads, String workloadType) {
        Objects.requireNonNull(workloadType, "workloadType");
        List<Problem> problems = new ArrayList<>();
        for (int i = 0; i < workloads.size(); i++) {
            for (OutputSchema.Violation violation : SCHEMA.validate(workloads.get(i))) {
                problems.add(new Problem(where(workloads, i, violation.pointer()), violation.message()));
            }
        }
        if (!problems.isEmpty()) {
            throw new RulesException(problems);
        }
        ObjectNode manifest = JsonNodeFactory.instance.objectNode();
        ObjectNode manifestWorkloads = manifest.putObject("workloads");
        Map<String, ObjectNode> shared = new LinkedHashMap<>();
        Map<String, String> sharedKeys = new LinkedHashMap<>();
        for (int i = 0; i < workloads.size(); i++) {
            JsonNode score = workloads.get(i);
            String name = score.path("metadata").path("name").asText();
            if (manifestWorkloads.has(name)) {
                problems.add(new Problem(
                        where(workloads, i, "/metadata/name"), "another Score file is workload `" + name + "` too"));
                continue;
            }
            // where each Score resource is in the manifest: a workload alias or a shared one
            Map<String, String> references = new LinkedHashMap<>();
            score.path("resources").fields().forEachRemaining(e -> {
                JsonNode id = e.getValue().get("id");
                references.put(
                        e.getKey(), id == null ? "resources." + e.getKey() : "shared." + sharedAlias(e.getValue()));
            });
            ObjectNode resources = manifestWorkloads.putObject(name).putObject("resources");
            ObjectNode params = JsonNodeFactory.instance.objectNode();
            params.set("metadata", score.get("metadata"));
            params.set("containers", score.get("containers"));
            if (score.has("service")) {
                params.set("service", score.get("service"));
            }
            final int document = i;
            ObjectNode workload = resources.putObject(WORKLOAD_ALIAS);
            workload.put("type", workloadType);
            workload.set("params", translate(params, score, references, "", workloads, document, problems));
            score.path("resources").fields().forEachRemaining(e -> {
                String resourcePath = "/resources/" + e.getKey();
                JsonNode resource = e.getValue();
                if (resource.has("metadata")) {
                    problems.add(new Problem(
                            where(workloads, document, resourcePath + "/metadata"),
                            "resource metadata (annotations) has no place in a Polystack manifest; remove it"));
                }
                ObjectNode converted = JsonNodeFactory.instance.objectNode();
                converted.put("type", resource.path("type").asText());
                if (resource.has("class")) {
                    converted.put("class", resource.path("class").asText());
                }
                if (resource.has("params")) {
                    converted.set(
                            "params",
                            translate(
                                    resource.get("params"),
                                    score,
                                    references,
                                    resourcePath + "/params",
                                    workloads,
                                    document,
                                    problems));
                }
                if (!resource.has("id")) {
                    if (e.getKey().equals(WORKLOAD_ALIAS)) {
                        problems.add(
                                new Problem(
                                        where(workloads, document, resourcePath),
                                        "`" + WORKLOAD_ALIAS
                                                + "` is the name of the workload's own resource in the manifest; rename this one"));
                    }
                    resources.set(e.getKey(), converted);
                    return;
                }
                String alias = sharedAlias(resource);
                converted.put("id", resource.path("id").asText());
                String key = converted.path("type").asText() + "/"
                        + converted.path("class").asText("default") + "/"
                        + resource.path("id").asText();
                String earlierKey = sharedKeys.putIfAbsent(alias, key);
                ObjectNode earlier = shared.get(alias);
                if (earlier == null) {
                    shared.put(alias, converted);
                } else if (!key.equals(earlierKey)) {
                    problems.add(new Problem(
                            where(workloads, document, resourcePath + "/id"),
                            "id `" + resource.path("id").asText() + "` becomes shared alias `" + alias
                                    + "`, which another resource (" + earlierKey + ") has already"));
                } else if (!Objects.equals(earlier.get("params"), converted.get("params"))) {
                    problems.add(
                            new Problem(
                                    where(workloads, document, resourcePath + "/params"),
                                    "shared resource " + key
                                            + " is declared with other params in another Score file; one resource has one set of params"));
                }
            });
        }
        if (!problems.isEmpty()) {
            throw new RulesException(problems);
        }
        if (!shared.isEmpty()) {
            ObjectNode sharedNode = manifest.putObject("shared");
            shared.forEach(sharedNode::set);
        }
        return manifest;
    }

    /** A manifest alias for a shared resource: its id, with what an alias cannot hold replaced by `-`. */
    static String sharedAlias(JsonNode resource) {
        String alias = resource.path("id").asText().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_-]", "-");
        if (alias.length() > 63) {
            alias = alias.substring(0, 63);
        }
        return Identifiers.isName(alias) ? alias : "r-" + Integer.toHexString(alias.hashCode());
    }

    private static JsonNode translate(
            JsonNode value,
            JsonNode score,
            Map<String, String> references,
            String pointer,
            List<JsonNode> all,
            int document,
            List<Problem> problems) {
        if (value == null || value.isNull()) {
            return value;
        }
        if (value.isTextual()) {
            return TextNode.valueOf(translateText(value.asText(), score, references, pointer, all, document, problems));
        }
        if (value.isObject()) {
            ObjectNode copy = JsonNodeFactory.instance.objectNode();
            Iterator<Map.Entry<String, JsonNode>> fields = value.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                copy.set(
                        field.getKey(),
                        translate(
                                field.getValue(),
                                score,
                                references,
                                pointer + "/" + escape(field.getKey()),
                                all,
                                document,
                                problems));
            }
            return copy;
        }
        if (value.isArray()) {
            var copy = JsonNodeFactory.instance.arrayNode();
            for (int i = 0; i < value.size(); i++) {
                copy.add(translate(value.get(i), score, references, pointer + "/" + i, all, document, problems));
            }
            return copy;
        }
        return value;
    }

    private static String translateText(
            String text,
            JsonNode score,
            Map<String, String> references,
            String pointer,
            List<JsonNode> all,
            int document,
            List<Problem> problems) {
        if (text.contains("$${")) {
            problems.add(new Problem(
                    where(all, document, pointer), "the `$${...}` escape has no equivalent in a Polystack manifest"));
            return text;
        }
        Matcher m = PLACEHOLDER.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String[] parts = m.group(1).split("\\.", -1);
            String replacement = null;
            if (parts.length >= 2 && parts[0].equals("metadata")) {
                JsonNode found = score.path("metadata");
                for (int i = 1; i < parts.length; i++) {
                    found = found.path(parts[i]);
                }
                if (found.isValueNode()) {
                    replacement = found.asText();
                } else {
                    problems.add(new Problem(
                            where(all, document, pointer),
                            "`${" + m.group(1) + "}`: the workload's metadata has no such value"));
                }
            } else if (parts.length >= 3 && parts[0].equals("resources")) {
                String target = references.get(parts[1]);
                if (target == null) {
                    problems.add(new Problem(
                            where(all, document, pointer),
                            "`${" + m.group(1) + "}`: the workload has no resource `" + parts[1] + "`"));
                } else {
                    replacement = "${" + target + ".outputs."
                            + String.join(".", Arrays.copyOfRange(parts, 2, parts.length)) + "}";
                }
            } else {
                problems.add(new Problem(
                        where(all, document, pointer),
                        "`${" + m.group(1) + "}` is not a placeholder Polystack can convert;"
                                + " use ${metadata.KEY} or ${resources.NAME.KEY}"));
            }
            m.appendReplacement(out, Matcher.quoteReplacement(replacement == null ? m.group() : replacement));
        }
        m.appendTail(out);
        return out.toString();
    }

    private static String where(List<JsonNode> all, int document, String pointer) {
        String name = all.get(document).path("metadata").path("name").asText("");
        String prefix = all.size() > 1 ? "document " + (document + 1) + (name.isEmpty() ? "" : " (" + name + ")") : "";
        String path = pointer == null || pointer.isEmpty() ? "/" : pointer;
        return prefix.isEmpty() ? path : prefix + ": " + path;
    }

    private static String escape(String key) {
        return key.replace("~", "~0").replace("/", "~1");
    }

    private static OutputSchema loadSchema() {
        try (InputStream in = ScoreConverter.class.getResourceAsStream("/score/score-v1b1.json")) {
            return OutputSchema.of(
                    new ObjectMapper().readTree(Objects.requireNonNull(in, "score-v1b1.json is missing")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
