package dev.polystack.rules.module;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * What a module's code declares: its input variables and its outputs. Read from inline code in HCL
 * native syntax or in JSON syntax (code that starts with {@code {}), as OpenTofu reads a module's
 * {@code main.tf} or {@code main.tf.json}; whatever is wrong is reported with its line and column.
 */
public record ModuleInterface(Map<String, Variable> variables, Map<String, Output> outputs) {

    /** Variable names OpenTofu and Terraform refuse: they mean something else in a {@code module} block. */
    public static final Set<String> RESERVED_VARIABLE_NAMES =
            Set.of("source", "version", "providers", "count", "for_each", "lifecycle", "depends_on", "locals");

    /** Top-level block types of a module and how many labels each takes. */
    private static final Map<String, Integer> BLOCK_LABELS = Map.ofEntries(
            Map.entry("terraform", 0),
            Map.entry("variable", 1),
            Map.entry("output", 1),
            Map.entry("locals", 0),
            Map.entry("module", 1),
            Map.entry("provider", 1),
            Map.entry("resource", 2),
            Map.entry("data", 2),
            Map.entry("ephemeral", 2),
            Map.entry("moved", 0),
            Map.entry("import", 0),
            Map.entry("removed", 0),
            Map.entry("check", 1));

    private static final Set<String> VARIABLE_ARGUMENTS =
            Set.of("type", "default", "description", "sensitive", "nullable", "ephemeral");
    private static final Set<String> OUTPUT_ARGUMENTS =
            Set.of("value", "description", "sensitive", "depends_on", "ephemeral");
    private static final Pattern NAME = Pattern.compile("^[A-Za-z_][A-Za-z0-9_-]*$");
    private static final ObjectMapper JSON = new ObjectMapper();

    /** An input variable: required when it has no default. */
    public record Variable(String name, String type, boolean required, boolean sensitive, String description) {}

    /** An output the module produces. */
    public record Output(String name, boolean sensitive, String description) {}

    /** One thing wrong with the code, at a line and column (0 when unknown). */
    public record Problem(int line, int column, String message) {
        @Override
        public String toString() {
            return line > 0 ? "line " + line + ", column " + column + ": " + message : message;
        }
    }

    /** Thrown when the code is not a module OpenTofu would load. */
    public static final class InvalidModuleException extends RuntimeException {
        private final List<Problem> problems;

        public InvalidModuleException(List<Problem> problems) {
            super(problems.stream()
                    .map(Problem::toString)
                    .reduce((a, b) -> a + "; " + b)
                    .orElse("invalid module"));
            this.problems = List.copyOf(problems);
        }

        public List<Problem> problems() {
            return problems;
        }
    }

    public ModuleInterface {
        variables = Collections.unmodifiableMap(new TreeMap<>(variables));
        outputs = Collections.unmodifiableMap(new TreeMap<>(outputs));
    }

    /**
     * Reads inline module code.
     *
     * @throws InvalidModuleException with every problem found (a syntax error stops the reading at once)
     */
    public static ModuleInterface read(String code) {
        return code.stripLeading().startsWith("{") ? readJson(code) : readHcl(code);
    }

    private static ModuleInterface readHcl(String code) {
        HclSyntax.Body body;
        try {
            body = HclSyntax.parse(code);
        } catch (HclSyntax.SyntaxError e) {
            throw new InvalidModuleException(List.of(new Problem(e.line(), e.column(), e.getMessage())));
        }
        List<Problem> problems = new ArrayList<>();
        Map<String, Variable> variables = new TreeMap<>();
        Map<String, Output> outputs = new TreeMap<>();
        for (HclSyntax.Attribute attribute : body.attributes()) {
            problems.add(new Problem(
                    attribute.line(),
                    attribute.column(),
                    "Unsupported argument: `" + attribute.name()
                            + "` cannot be set at the top level of a module; put it in a block such as `locals`"));
        }
        for (HclSyntax.Block block : body.blocks()) {
            Integer labels = BLOCK_LABELS.get(block.type());
            if (labels == null) {
                problems.add(new Problem(
                        block.line(),
                        block.column(),
                        "Unsupported block type: blocks of type `" + block.type() + "` are not expected here"));
                continue;
            }
            if (block.labels().size() != labels) {
                problems.add(new Problem(
                        block.line(),
                        block.column(),
                        "Invalid block: a `" + block.type() + "` block takes " + labels + " label"
                                + (labels == 1 ? "" : "s") + ", not "
                                + block.labels().size()));
                continue;
            }
            switch (block.type()) {
                case "variable" -> variable(block, problems, variables);
                case "output" -> output(block, problems, outputs);
                default -> {}
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidModuleException(problems);
        }
        return new ModuleInterface(variables, outputs);
    }

    private static void variable(HclSyntax.Block block, List<Problem> problems, Map<String, Variable> variables) {
        String name = block.labels().get(0);
        if (!checkName(name, "variable", block.line(), block.column(), problems, variables.containsKey(name))) {
            return;
        }
        if (RESERVED_VARIABLE_NAMES.contains(name)) {
            problems.add(new Problem(
                    block.line(),
                    block.column(),
                    "Invalid variable name: `" + name + "` is reserved (it means"
                            + " something else in a module block); reserved are "
                            + String.join(", ", new TreeSet<>(RESERVED_VARIABLE_NAMES))));
            return;
        }
        for (HclSyntax.Attribute attribute : block.body().attributes()) {
            if (!VARIABLE_ARGUMENTS.contains(attribute.name())) {
                problems.add(new Problem(
                        attribute.line(),
                        attribute.column(),
                        "Unsupported argument: a variable has no `" + attribute.name() + "`; it takes "
                                + String.join(", ", new TreeSet<>(VARIABLE_ARGUMENTS))));
            }
        }
        HclSyntax.Attribute type = block.body().attribute("type");
        variables.put(
                name,
                new Variable(
                        name,
                        type == null ? "any" : type.expression(),
                        block.body().attribute("default") == null,
                        Boolean.TRUE.equals(literal(block.body().attribute("sensitive"))),
                        text(block.body().attribute("description"))));
    }

    private static void output(HclSyntax.Block block, List<Problem> problems, Map<String, Output> outputs) {
        String name = block.labels().get(0);
        if (!checkName(name, "output", block.line(), block.column(), problems, outputs.containsKey(name))) {
            return;
        }
        for (HclSyntax.Attribute attribute : block.body().attributes()) {
            if (!OUTPUT_ARGUMENTS.contains(attribute.name())) {
                problems.add(new Problem(
                        attribute.line(),
                        attribute.column(),
                        "Unsupported argument: an output has no `" + attribute.name() + "`; it takes "
                                + String.join(", ", new TreeSet<>(OUTPUT_ARGUMENTS))));
            }
        }
        if (block.body().attribute("value") == null) {
            problems.add(new Problem(
                    block.line(), block.column(), "Missing required argument: output `" + name + "` needs a `value`"));
        }
        outputs.put(
                name,
                new Output(
                        name,
                        Boolean.TRUE.equals(literal(block.body().attribute("sensitive"))),
                        text(block.body().attribute("description"))));
    }

    private static boolean checkName(
            String name, String kind, int line, int column, List<Problem> problems, boolean duplicate) {
        if (!NAME.matcher(name).matches()) {
            problems.add(new Problem(
                    line,
                    column,
                    "Invalid " + kind + " name: `" + name + "` must start with a letter or"
                            + " underscore and hold only letters, digits, underscores and dashes"));
            return false;
        }
        if (duplicate) {
            problems.add(new Problem(line, column, "Duplicate " + kind + ": `" + name + "` is declared twice"));
            return false;
        }
        return true;
    }

    private static Object literal(HclSyntax.Attribute attribute) {
        return attribute == null ? null : attribute.literal();
    }

    private static String text(HclSyntax.Attribute attribute) {
        return attribute != null && attribute.literal() instanceof String s && !s.equals(attribute.expression())
                ? s
                : null;
    }

    private static ModuleInterface readJson(String code) {
        JsonNode root;
        try {
            root = JSON.readTree(code);
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            String message = e.getOriginalMessage();
            throw new InvalidModuleException(List.of(new Problem(
                    at == null ? 0 : at.getLineNr(),
                    at == null ? 0 : at.getColumnNr(),
                    "Invalid JSON: "
                            + (message == null
                                    ? "cannot be read"
                                    : message.lines().findFirst().orElse(message)))));
        }
        if (root == null || !root.isObject()) {
            throw new InvalidModuleException(
                    List.of(new Problem(1, 1, "Invalid JSON syntax: a module in JSON is an object")));
        }
        List<Problem> problems = new ArrayList<>();
        Map<String, Variable> variables = new TreeMap<>();
        Map<String, Output> outputs = new TreeMap<>();
        root.properties().forEach(entry -> {
            if (!BLOCK_LABELS.containsKey(entry.getKey()) && !entry.getKey().equals("//")) {
                problems.add(new Problem(
                        0, 0, "Unsupported block type: `" + entry.getKey() + "` is not expected at the top level"));
            }
        });
        for (Map.Entry<String, JsonNode> entry : blocks(root.path("variable"), "variable", problems)) {
            String name = entry.getKey();
            JsonNode body = entry.getValue();
            if (!checkName(name, "variable", 0, 0, problems, variables.containsKey(name))) {
                continue;
            }
            if (RESERVED_VARIABLE_NAMES.contains(name)) {
                problems.add(new Problem(
                        0,
                        0,
                        "Invalid variable name: `" + name + "` is reserved (it means something else in a"
                                + " module block)"));
                continue;
            }
            variables.put(
                    name,
                    new Variable(
                            name,
                            body.path("type").isTextual() ? body.path("type").asText() : "any",
                            !body.has("default"),
                            body.path("sensitive").asBoolean(false),
                            body.path("description").isTextual()
                                    ? body.path("description").asText()
                                    : null));
        }
        for (Map.Entry<String, JsonNode> entry : blocks(root.path("output"), "output", problems)) {
            String name = entry.getKey();
            JsonNode body = entry.getValue();
            if (!checkName(name, "output", 0, 0, problems, outputs.containsKey(name))) {
                continue;
            }
            if (!body.has("value")) {
                problems.add(new Problem(0, 0, "Missing required argument: output `" + name + "` needs a `value`"));
            }
            outputs.put(
                    name,
                    new Output(
                            name,
                            body.path("sensitive").asBoolean(false),
                            body.path("description").isTextual()
                                    ? body.path("description").asText()
                                    : null));
        }
        if (!problems.isEmpty()) {
            throw new InvalidModuleException(problems);
        }
        return new ModuleInterface(variables, outputs);
    }

    /** {@code {"name": {...}}}, or an array of such objects, as JSON syntax allows for labelled blocks. */
    private static List<Map.Entry<String, JsonNode>> blocks(JsonNode node, String kind, List<Problem> problems) {
        List<Map.Entry<String, JsonNode>> found = new ArrayList<>();
        if (node.isMissingNode()) {
            return found;
        }
        List<JsonNode> objects = new ArrayList<>();
        if (node.isArray()) {
            node.forEach(objects::add);
        } else {
            objects.add(node);
        }
        for (JsonNode object : objects) {
            if (!object.isObject()) {
                problems.add(new Problem(0, 0, "Invalid `" + kind + "`: expected an object of " + kind + "s by name"));
                continue;
            }
            object.properties().forEach(entry -> {
                JsonNode body = entry.getValue().isArray() && entry.getValue().size() == 1
                        ? entry.getValue().get(0)
                        : entry.getValue();
                if (!body.isObject()) {
                    problems.add(
                            new Problem(0, 0, "Invalid " + kind + " `" + entry.getKey() + "`: expected an object"));
                } else {
                    found.add(Map.entry(entry.getKey(), body));
                }
            });
        }
        return found;
    }
}
