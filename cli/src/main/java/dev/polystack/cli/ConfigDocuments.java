package dev.polystack.cli;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reads configuration documents: YAML files (several documents each, separated by {@code ---}) or
 * directories of them, one object per document with its {@code kind}. Secrets come from the environment
 * ({@code ${env:NAME}} in any string), never from the files. Everything is checked before anything is sent.
 */
final class ConfigDocuments {

    /** A module's code read from a file beside its document, instead of {@code module_source_code}. */
    static final String SOURCE_FILE = "module_source_code_file";

    private static final ObjectMapper YAML =
            new ObjectMapper(new YAMLFactory().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION));
    private static final Pattern ENV = Pattern.compile("\\$\\{env:([A-Za-z_][A-Za-z0-9_]*)}");

    /** One object as the files want it, and where it was written. */
    record Desired(ConfigKind kind, ObjectNode object, String source) {}

    private ConfigDocuments() {}

    /** The documents of the given files and directories (their .yaml and .yml files, sorted), in creation order. */
    static List<Desired> read(List<String> locations, Function<String, String> environment) {
        List<Desired> all = new ArrayList<>();
        for (String location : locations) {
            for (Path file : files(Path.of(location))) {
                all.addAll(readFile(file, environment));
            }
        }
        if (all.isEmpty()) {
            throw CliException.badInput("no configuration documents in " + String.join(", ", locations));
        }
        requireUnique(all);
        all.sort(Comparator.comparing(Desired::kind));
        return all;
    }

    private static List<Path> files(Path location) {
        if (Files.isDirectory(location)) {
            try (Stream<Path> walk = Files.walk(location)) {
                return walk.filter(Files::isRegularFile)
                        .filter(p ->
                                p.toString().endsWith(".yaml") || p.toString().endsWith(".yml"))
                        .sorted()
                        .toList();
            } catch (IOException e) {
                throw CliException.badInput("cannot read `" + location + "`: " + e.getMessage());
            }
        }
        if (!Files.exists(location)) {
            throw CliException.badInput("no file or directory `" + location + "`");
        }
        return List.of(location);
    }

    static List<Desired> readFile(Path file, Function<String, String> environment) {
        List<Desired> documents = new ArrayList<>();
        try (MappingIterator<JsonNode> it =
                YAML.readerFor(JsonNode.class).readValues(Files.readString(file, StandardCharsets.UTF_8))) {
            int index = 0;
            while (it.hasNextValue()) {
                JsonNode document = it.nextValue();
                index++;
                if (document == null || document.isNull() || document.isMissingNode()) {
                    continue;
                }
                String source = file + " (document " + index + ")";
                documents.add(desired(document, source, file, environment));
            }
        } catch (NoSuchFileException e) {
            throw CliException.badInput("no file `" + file + "`");
        } catch (JsonProcessingException e) {
            throw CliException.badInput(file + " is not valid YAML: " + e.getOriginalMessage()
                    + (e.getLocation() == null
                            ? ""
                            : " (line " + e.getLocation().getLineNr() + ")"));
        } catch (IOException e) {
            throw CliException.badInput("cannot read `" + file + "`: " + e.getMessage());
        }
        return documents;
    }

    private static Desired desired(JsonNode document, String source, Path file, Function<String, String> environment) {
        if (!(document instanceof ObjectNode object)) {
            throw CliException.badInput(source + ": a document is a mapping with a `kind`");
        }
        String kindName = object.path("kind").asText("");
        ConfigKind kind = ConfigKind.named(kindName)
                .orElseThrow(() -> CliException.badInput(
                        source + ": " + (kindName.isEmpty() ? "no `kind`" : "unknown kind `" + kindName + "`")
                                + "; the kinds are " + ConfigKind.names()));
        for (Iterator<String> names = object.fieldNames(); names.hasNext(); ) {
            String field = names.next();
            if (field.equals("managed_by")) {
                throw CliException.badInput(
                        source + ": `managed_by` is set by the command's --managed-by, not by a document");
            }
            if (!kind.allows(field)) {
                throw CliException.badInput(source + ": " + kindName + " has no field `" + field + "`");
            }
        }
        for (String key : kind.keys) {
            if (!object.path(key).isTextual() || object.path(key).asText().isBlank()) {
                throw CliException.badInput(source + ": " + kindName + " needs `" + key + "`");
            }
        }
        if (object.has("protected") && !object.get("protected").isBoolean()) {
            throw CliException.badInput(source + ": `protected` is true or false");
        }
        ObjectNode resolved = (ObjectNode) interpolate(object, source, environment);
        resolved.remove("kind");
        if (resolved.has(SOURCE_FILE)) {
            if (resolved.has("module_source_code")) {
                throw CliException.badInput(source + ": give module_source_code or " + SOURCE_FILE + ", not both");
            }
            Path code = file.toAbsolutePath()
                    .getParent()
                    .resolve(resolved.remove(SOURCE_FILE).asText());
            try {
                resolved.put("module_source_code", Files.readString(code, StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw CliException.badInput(source + ": cannot read " + SOURCE_FILE + " `" + code + "`");
            }
        }
        return new Desired(kind, resolved, source);
    }

    /** Replaces {@code ${env:NAME}} in every string; a variable that is not set is bad input, named with its document. */
    static JsonNode interpolate(JsonNode node, String source, Function<String, String> environment) {
        if (node.isTextual()) {
            Matcher m = ENV.matcher(node.asText());
            StringBuilder out = new StringBuilder();
            while (m.find()) {
                String value = environment.apply(m.group(1));
                if (value == null) {
                    throw CliException.badInput(source + ": ${env:" + m.group(1) + "} is not set in the environment");
                }
                m.appendReplacement(out, Matcher.quoteReplacement(value));
            }
            m.appendTail(out);
            return TextNode.valueOf(out.toString());
        }
        if (node instanceof ObjectNode object) {
            ObjectNode copy = object.objectNode();
            object.fields().forEachRemaining(e -> copy.set(e.getKey(), interpolate(e.getValue(), source, environment)));
            return copy;
        }
        if (node instanceof ArrayNode array) {
            ArrayNode copy = array.arrayNode();
            array.forEach(item -> copy.add(interpolate(item, source, environment)));
            return copy;
        }
        return node;
    }

    private static void requireUnique(List<Desired> all) {
        Map<String, String> seen = new HashMap<>();
        for (Desired desired : all) {
            String identity = ConfigPlan.identity(desired.kind(), desired.object(), Map.of());
            String before = seen.putIfAbsent(identity, desired.source());
            if (before != null) {
                throw CliException.badInput(desired.source() + ": "
                        + desired.kind().display(desired.object()) + " is also defined in " + before);
            }
        }
    }
}
