package dev.polystack.rules.manifest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.util.JsonParserDelegate;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import dev.polystack.rules.Identifiers;
import dev.polystack.rules.Problem;
import dev.polystack.rules.ResourceIdentity;
import dev.polystack.rules.RulesException;
import dev.polystack.rules.template.Placeholders;
import dev.polystack.rules.template.Segment;
import dev.polystack.rules.template.Usage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads manifests (YAML or JSON) and checks their structure, names, identities, limits and
 * references. Every problem names its path, e.g. {@code workloads.checkout.resources.db.type}.
 * Thread-safe.
 */
public final class ManifestParser {

    /** A key given twice is an error in both formats, not "the last one wins". */
    private static final YAMLFactory YAML_FACTORY = YAMLFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    private static final ObjectMapper YAML = new ObjectMapper(YAML_FACTORY);
    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();
    private static final Pattern INTERNAL_NAMES =
            Pattern.compile("\\b(?:org\\.yaml\\.snakeyaml|com\\.fasterxml\\.jackson)(?:\\.\\w+)*\\.(\\w+)");
    private static final Set<String> TOP = Set.of("workloads", "shared");
    private static final Set<String> WORKLOAD = Set.of("resources", "outputs");
    private static final Set<String> RESOURCE = Set.of("type", "class", "id", "params");

    private final ManifestLimits limits;

    public ManifestParser(ManifestLimits limits) {
        this.limits = limits;
    }

    public ManifestParser() {
        this(ManifestLimits.DEFAULT);
    }

    /** Parses YAML (of which JSON is a subset). */
    /**
     * The longest line a YAML manifest may have. SnakeYAML copies its whole read-ahead window for every
     * kilobyte it reads, so one scalar of a megabyte on one line costs seconds (quadratic); lines of this
     * length stay in milliseconds. JSON manifests, read by another parser, have no such limit.
     */
    public static final int MAX_YAML_LINE = 65_536;

    /** The number (from 1) of the first line longer than {@link #MAX_YAML_LINE}, or 0 when there is none. */
    public static int firstLongLine(String text) {
        int line = 1;
        int length = 0;
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                line++;
                length = 0;
            } else if (++length > MAX_YAML_LINE) {
                return line;
            }
        }
        return 0;
    }

    public Manifest parseYaml(String text) {
        String content = text == null ? "" : text;
        int longLine = firstLongLine(content);
        if (longLine > 0) {
            throw new RulesException(
                    "",
                    "line " + longLine + " is longer than " + MAX_YAML_LINE + " characters; split long values"
                            + " over several lines (a YAML block scalar) or send the manifest as JSON");
        }
        return parse(readYaml(content));
    }

    public Manifest parseJson(String text) {
        return parse(read(JSON, text == null ? "" : text));
    }

    private static JsonNode read(ObjectMapper mapper, String text) {
        try {
            JsonNode node = mapper.readTree(text);
            return node == null || node.isMissingNode() ? JsonNodeFactory.instance.objectNode() : node;
        } catch (JsonProcessingException e) {
            throw unreadable(e);
        }
    }

    /**
     * Reads the manifest's YAML in one pass, refusing what Jackson would read differently from what was
     * written: aliases (Jackson reads {@code *name} as the string "name", and an alias bomb must not be
     * expanded either) and further documents after the first (Jackson ignores them). Duplicate keys fail in
     * the parser itself.
     */
    private static JsonNode readYaml(String text) {
        try (YAMLParser yaml = (YAMLParser) YAML_FACTORY.createParser(text)) {
            JsonNode tree = YAML.readTree(new AliasRefusing(yaml));
            // after the first document only empty ones may follow
            JsonToken token;
            while ((token = yaml.nextToken()) != null) {
                refuseAlias(yaml);
                if (!(token.isScalarValue() && yaml.getText().isEmpty() || token == JsonToken.VALUE_NULL)) {
                    throw new RulesException(
                            "",
                            "a manifest is one YAML document, but another starts at line "
                                    + yaml.currentTokenLocation().getLineNr());
                }
            }
            return tree == null || tree.isMissingNode() ? JsonNodeFactory.instance.objectNode() : tree;
        } catch (JsonProcessingException e) {
            throw unreadable(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void refuseAlias(YAMLParser yaml) throws IOException {
        if (yaml.isCurrentAlias()) {
            throw new RulesException(
                    "",
                    "YAML aliases are not supported: `*" + yaml.getText() + "` at line "
                            + yaml.currentTokenLocation().getLineNr() + "; write the value out");
        }
    }

    /** The YAML parser as the tree reader sees it: every token it moves to is checked for an alias first. */
    private static final class AliasRefusing extends JsonParserDelegate {
        private final YAMLParser yaml;

        AliasRefusing(YAMLParser yaml) {
            super(yaml);
            this.yaml = yaml;
        }

        /** What a move returned, once the token it moved to is known not to be an alias. */
        private <T> T checked(T moved) throws IOException {
            refuseAlias(yaml);
            return moved;
        }

        @Override
        public JsonToken nextToken() throws IOException {
            return checked(yaml.nextToken());
        }

        @Override
        public JsonToken nextValue() throws IOException {
            return checked(yaml.nextValue());
        }

        @Override
        public String nextFieldName() throws IOException {
            return checked(yaml.nextFieldName());
        }

        @Override
        public boolean nextFieldName(SerializableString expected) throws IOException {
            return checked(yaml.nextFieldName(expected));
        }

        @Override
        public String nextTextValue() throws IOException {
            return checked(yaml.nextTextValue());
        }
    }

    private static RulesException unreadable(JsonProcessingException e) {
        var location = e.getLocation();
        String where =
                location == null ? "" : " at line " + location.getLineNr() + ", column " + location.getColumnNr();
        String message = String.valueOf(e.getOriginalMessage());
        if (message.contains("AliasEvent")) {
            message = "YAML aliases are not supported; write the value out";
        } else if (e instanceof StreamConstraintsException) {
            message = message.replaceAll(",? from `[^`]*`", "");
        } else if (message.startsWith("Trailing token")) {
            message = "there is more after the manifest";
        }
        // the parsers' messages name their own classes now and then; a caller has no use for them
        message = INTERNAL_NAMES.matcher(message).replaceAll("$1");
        return new RulesException("", "the manifest cannot be read" + where + ": " + message);
    }

    /** Checks a manifest that is already a JSON tree. */
    public Manifest parse(JsonNode root) {
        List<Problem> problems = new ArrayList<>();
        if (!root.isObject()) {
            throw new RulesException("", "a manifest must be a map with `workloads` and/or `shared`");
        }
        unknownKeys(root, TOP, "", problems);
        Map<String, ResourceRequest> shared = new LinkedHashMap<>();
        Map<String, Workload> workloads = new LinkedHashMap<>();
        int[] count = {0};

        JsonNode sharedNode = root.get("shared");
        if (sharedNode != null && !sharedNode.isNull()) {
            if (!sharedNode.isObject()) {
                problems.add(new Problem("shared", "expected a map of alias to resource"));
            } else {
                sharedNode.fields().forEachRemaining(e -> {
                    ResourceRequest request =
                            resource("shared." + e.getKey(), null, e.getKey(), e.getValue(), problems, count);
                    if (request != null) {
                        shared.put(e.getKey(), request);
                    }
                });
            }
        }
        JsonNode workloadsNode = root.get("workloads");
        if (workloadsNode != null && !workloadsNode.isNull()) {
            if (!workloadsNode.isObject()) {
                problems.add(new Problem("workloads", "expected a map of workload name to workload"));
            } else {
                workloadsNode.fields().forEachRemaining(e -> {
                    Workload workload = workload(e.getKey(), e.getValue(), problems, count);
                    if (workload != null) {
                        workloads.put(e.getKey(), workload);
                    }
                });
            }
        }
        if (count[0] > limits.maxResources()) {
            problems.add(new Problem(
                    "", "the manifest declares " + count[0] + " resources; the limit is " + limits.maxResources()));
        }
        Manifest manifest = new Manifest(workloads, shared);
        checkIdentities(manifest, problems);
        checkReferences(manifest, problems);
        if (!problems.isEmpty()) {
            throw new RulesException(problems);
        }
        return manifest;
    }

    private Workload workload(String name, JsonNode node, List<Problem> problems, int[] count) {
        String path = "workloads." + name;
        if (!Identifiers.isName(name)) {
            problems.add(new Problem(path, "a workload name must be 1-63 lowercase letters, digits, `-` or `_`"));
        }
        if (node == null || node.isNull()) {
            return new Workload(name, Map.of(), JsonNodeFactory.instance.objectNode());
        }
        if (!node.isObject()) {
            problems.add(new Problem(path, "expected a map with `resources` and/or `outputs`"));
            return null;
        }
        unknownKeys(node, WORKLOAD, path, problems);
        Map<String, ResourceRequest> resources = new LinkedHashMap<>();
        JsonNode resourcesNode = node.get("resources");
        if (resourcesNode != null && !resourcesNode.isNull()) {
            if (!resourcesNode.isObject()) {
                problems.add(new Problem(path + ".resources", "expected a map of alias to resource"));
            } else {
                resourcesNode.fields().forEachRemaining(e -> {
                    ResourceRequest request = resource(
                            path + ".resources." + e.getKey(), name, e.getKey(), e.getValue(), problems, count);
                    if (request != null) {
                        resources.put(e.getKey(), request);
                    }
                });
            }
        }
        ObjectNode outputs = JsonNodeFactory.instance.objectNode();
        JsonNode outputsNode = node.get("outputs");
        if (outputsNode != null && !outputsNode.isNull()) {
            if (!outputsNode.isObject()) {
                problems.add(new Problem(path + ".outputs", "expected a map of output name to value"));
            } else {
                outputs = (ObjectNode) outputsNode;
            }
        }
        return new Workload(name, resources, outputs);
    }

    private ResourceRequest resource(
            String path, String workload, String alias, JsonNode node, List<Problem> problems, int[] count) {
        count[0]++;
        if (!Identifiers.isName(alias)) {
            problems.add(new Problem(path, "an alias must be 1-63 lowercase letters, digits, `-` or `_`"));
        }
        if (node == null || !node.isObject()) {
            problems.add(new Problem(path, "expected a map with `type` and optionally `class`, `id`, `params`"));
            return null;
        }
        unknownKeys(node, RESOURCE, path, problems);
        String type = text(node, "type", path, problems, true);
        if (type != null && !Identifiers.isSlug(type)) {
            problems.add(new Problem(path + ".type", "expected a resource type id such as postgres"));
        }
        String resourceClass = text(node, "class", path, problems, false);
        if (resourceClass == null) {
            resourceClass = ResourceIdentity.DEFAULT_CLASS;
        } else if (!Identifiers.isName(resourceClass)) {
            problems.add(new Problem(path + ".class", "expected a lowercase class name such as default or ha"));
        }
        String id = text(node, "id", path, problems, false);
        if (id == null) {
            id = (workload == null ? "shared" : workload) + "." + alias;
        } else if (!Identifiers.isResourceId(id)) {
            problems.add(
                    new Problem(path + ".id", "expected a resource id of lowercase letters, digits, `.`, `-` or `_`"));
        }
        ObjectNode params = JsonNodeFactory.instance.objectNode();
        JsonNode paramsNode = node.get("params");
        if (paramsNode != null && !paramsNode.isNull()) {
            if (!paramsNode.isObject()) {
                problems.add(new Problem(path + ".params", "expected a map of param name to value"));
            } else {
                params = (ObjectNode) paramsNode;
                if (params.size() > limits.maxParamsPerResource()) {
                    problems.add(new Problem(
                            path + ".params",
                            params.size() + " params; the limit is " + limits.maxParamsPerResource()));
                }
            }
        }
        if (type == null) {
            return null;
        }
        return new ResourceRequest(path, workload, alias, new ResourceIdentity(type, resourceClass, id), params);
    }

    /** Declarations of one identity must agree on their params. */
    private static void checkIdentities(Manifest manifest, List<Problem> problems) {
        Map<ResourceIdentity, ResourceRequest> first = new HashMap<>();
        for (ResourceRequest request : manifest.requests()) {
            ResourceRequest earlier = first.putIfAbsent(request.identity(), request);
            if (earlier != null && !earlier.params().equals(request.params())) {
                problems.add(new Problem(
                        request.path() + ".params",
                        "declares the same resource (" + request.identity() + ") as " + earlier.path()
                                + " with other params"));
            }
        }
    }

    /** Placeholders in params and outputs must be valid and name existing aliases. */
    private static void checkReferences(Manifest manifest, List<Problem> problems) {
        for (ResourceRequest request : manifest.requests()) {
            Map<String, ResourceRequest> siblings = request.isShared()
                    ? Map.of()
                    : manifest.workloads().get(request.workload()).resources();
            checkTemplates(
                    request.params(),
                    request.path() + ".params",
                    siblings,
                    manifest.shared(),
                    request.isShared(),
                    problems);
        }
        for (Workload workload : manifest.workloads().values()) {
            checkTemplates(
                    workload.outputs(),
                    "workloads." + workload.name() + ".outputs",
                    workload.resources(),
                    manifest.shared(),
                    false,
                    problems);
        }
    }

    private static void checkTemplates(
            JsonNode document,
            String path,
            Map<String, ResourceRequest> resources,
            Map<String, ResourceRequest> shared,
            boolean inShared,
            List<Problem> problems) {
        for (Placeholders.Found found : Placeholders.scan(document, path, Usage.MANIFEST, problems)) {
            for (Segment.Placeholder placeholder : found.template().placeholders()) {
                var reference = placeholder.reference();
                String alias = reference.fieldAt(0);
                if ("resources".equals(reference.root()) && alias != null) {
                    if (inShared) {
                        problems.add(new Problem(
                                found.path(),
                                "shared resources can only reference other shared resources as ${shared.<alias>...}"));
                    } else if (!resources.containsKey(alias)) {
                        problems.add(new Problem(
                                found.path(),
                                "unknown reference `${" + reference.text() + "}`: the workload has no resource `"
                                        + alias + "`"));
                    }
                } else if ("shared".equals(reference.root()) && alias != null && !shared.containsKey(alias)) {
                    problems.add(new Problem(
                            found.path(),
                            "unknown reference `${" + reference.text() + "}`: there is no shared resource `" + alias
                                    + "`"));
                }
            }
        }
    }

    private static String text(JsonNode node, String field, String path, List<Problem> problems, boolean required) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            if (required) {
                problems.add(new Problem(path + "." + field, "is required"));
            }
            return null;
        }
        if (!value.isTextual()) {
            problems.add(new Problem(path + "." + field, "expected a string"));
            return null;
        }
        return value.textValue();
    }

    private static void unknownKeys(JsonNode node, Set<String> known, String path, List<Problem> problems) {
        Iterator<String> names = node.fieldNames();
        while (names.hasNext()) {
            String name = names.next();
            if (!known.contains(name)) {
                problems.add(new Problem(
                        path.isEmpty() ? name : path + "." + name,
                        "unknown field; expected one of "
                                + String.join(", ", known.stream().sorted().toList())));
            }
        }
    }
}
