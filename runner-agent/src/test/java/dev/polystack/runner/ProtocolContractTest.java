package dev.polystack.runner;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.polystack.runner.protocol.CheckReport;
import dev.polystack.runner.protocol.ClaimedJob;
import dev.polystack.runner.protocol.HeartbeatReply;
import dev.polystack.runner.protocol.JobResult;
import dev.polystack.runner.protocol.JobStatus;
import dev.polystack.runner.protocol.LogBatch;
import dev.polystack.runner.protocol.Operation;
import dev.polystack.runner.protocol.ProtocolLimits;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The agent's copy of the runner protocol against the control plane's API document ({@code openapi/openapi.yaml},
 * which the control plane's own drift test keeps equal to what it serves): what the agent sends validates against
 * the document's schemas with no property the document does not name, and an answer built from the document's
 * schemas, every property present, reads into the agent's records with nothing unknown and nothing missing. A field
 * renamed on one side only fails one of the two.
 */
class ProtocolContractTest {

    private static final SchemaRegistry REGISTRY =
            SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    /** The agent's reader, but refusing what it does not know: the contract is exact, the agent is lenient. */
    private static final ObjectMapper STRICT = ControlPlane.JSON
            .copy()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(DeserializationFeature.READ_UNKNOWN_ENUM_VALUES_USING_DEFAULT_VALUE);

    private static ObjectNode document;

    @BeforeAll
    static void readDocument() throws IOException {
        Path path = Path.of(System.getProperty("polystack.repository", ".."), "openapi", "openapi.yaml");
        if (!Files.exists(path)) {
            path = Path.of("openapi", "openapi.yaml");
        }
        document = (ObjectNode) new YAMLMapper().readTree(path.toFile());
        // exact: an object schema that lists its properties takes no other
        document.path("components").path("schemas").forEach(ProtocolContractTest::closeObjects);
    }

    private static void closeObjects(JsonNode schema) {
        if (schema instanceof ObjectNode object) {
            if (object.has("properties") && !object.has("additionalProperties")) {
                object.put("additionalProperties", false);
            }
            object.forEach(ProtocolContractTest::closeObjects);
        } else if (schema instanceof ArrayNode array) {
            array.forEach(ProtocolContractTest::closeObjects);
        }
    }

    private static JsonNode schema(String name) {
        JsonNode schema = document.path("components").path("schemas").path(name);
        assertThat(schema.isMissingNode())
                .as("schema %s in openapi/openapi.yaml", name)
                .isFalse();
        return schema;
    }

    /** The schema itself, or the one its {@code $ref} names. */
    private static JsonNode resolved(JsonNode schema) {
        return schema.has("$ref")
                ? schema(schema.path("$ref").asText().substring("#/components/schemas/".length()))
                : schema;
    }

    private static List<String> violations(String name, Object value) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("$ref", "#/components/schemas/" + name);
        root.set("components", document.path("components"));
        Schema schema = REGISTRY.getSchema(root);
        JsonNode instance = ControlPlane.JSON.valueToTree(value);
        return schema.validate(instance).stream().map(Error::toString).toList();
    }

    @Test
    void everyResultTheAgentSendsMatchesTheControlPlanesSchema() {
        JobResult applied = new JobResult(
                JobStatus.SUCCEEDED,
                Map.of(
                        "host", new JobResult.Output(ControlPlane.JSON.valueToTree("db.internal"), false),
                        "password", new JobResult.Output(ControlPlane.JSON.valueToTree("s3cret"), true)),
                List.of(ControlPlane.JSON
                        .createObjectNode()
                        .put("address", "terraform_data.this")
                        .put("mode", "managed")
                        .put("type", "terraform_data")
                        .put("name", "this")
                        .put("provider", "terraform.io/builtin/terraform")
                        .set("depends_on", ControlPlane.JSON.createArrayNode().add("terraform_data.other"))),
                new JobResult.PlanSummary(1, 0, 0),
                null);
        JobResult checked = new JobResult(
                JobStatus.SUCCEEDED,
                null,
                null,
                new JobResult.PlanSummary(0, 1, 0),
                null,
                new CheckReport(
                        true,
                        true,
                        List.of(new CheckReport.ResourceDrift(
                                "terraform_data.this",
                                List.of("update"),
                                List.of(new CheckReport.AttributeChange(
                                        "input.size",
                                        ControlPlane.JSON.valueToTree(1),
                                        ControlPlane.JSON.valueToTree(2))))),
                        List.of(new CheckReport.ResourceChange(
                                "terraform_data.this", List.of("update"), "replace_because_cannot_update")),
                        List.of(new CheckReport.Attribute("terraform_data.this", "input"))));
        JobResult failed = JobResult.failed(
                "Error: Invalid count argument", "on main.tf line 3", new JobResult.PlanSummary(0, 0, 0));
        JobResult cancelled = JobResult.cancelled("the agent shut down");

        for (JobResult result : List.of(applied, checked, failed, cancelled)) {
            assertThat(violations("JobResult", result.withinLimits()))
                    .as("%s", result)
                    .isEmpty();
        }
    }

    @Test
    void theAgentsLogBatchMatchesTheControlPlanesSchema() {
        LogBatch batch = new LogBatch(
                3,
                List.of(
                        new LogBatch.Line(
                                Instant.parse("2026-12-02T08:00:00Z"),
                                "info",
                                "apply_complete",
                                "terraform_data.this: Creation complete"),
                        new LogBatch.Line(null, "text", null, "a line that was not JSON")));
        assertThat(violations("LogBatch", batch.withinLimits())).isEmpty();
    }

    @Test
    void aFieldTheAgentSendsUnderAnotherNameIsCaught() {
        ObjectNode renamed = ControlPlane.JSON.valueToTree(JobResult.cancelled("stopped"));
        renamed.set("plan", renamed.remove("error"));
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("$ref", "#/components/schemas/JobResult");
        root.set("components", document.path("components"));
        assertThat(REGISTRY.getSchema(root).validate(renamed))
                .as("a property the schema does not name")
                .isNotEmpty();
    }

    @Test
    void aJobAsTheControlPlaneDescribesItReadsCompletelyIntoTheAgentsRecord() throws IOException {
        JsonNode example = example(schema("ClaimedJob"));
        ClaimedJob job = STRICT.treeToValue(example, ClaimedJob.class);
        assertThat(missing(job, "ClaimedJob"))
                .as("agent fields the control plane does not send")
                .isEmpty();
    }

    @Test
    void aHeartbeatReplyReadsCompletelyIntoTheAgentsRecord() throws IOException {
        HeartbeatReply reply = STRICT.treeToValue(example(schema("HeartbeatReply")), HeartbeatReply.class);
        assertThat(missing(reply, "HeartbeatReply")).isEmpty();
    }

    @Test
    void statusesAndOperationsAreTheSameOnBothSides() throws IOException {
        List<String> statuses = texts(
                resolved(schema("JobResult").path("properties").path("status")).path("enum"));
        assertThat(statuses)
                .containsExactlyInAnyOrderElementsOf(Arrays.stream(JobStatus.values())
                        .map(JobStatus::toString)
                        .toList());
        List<String> operations =
                texts(resolved(schema("ClaimedJob").path("properties").path("operation"))
                        .path("enum"));
        assertThat(operations)
                .containsExactlyInAnyOrderElementsOf(Arrays.stream(Operation.values())
                        .filter(operation -> operation != Operation.UNKNOWN)
                        .map(Operation::toString)
                        .toList());
        for (String operation : operations) {
            assertThat(STRICT.treeToValue(JsonNodeFactory.instance.textNode(operation), Operation.class))
                    .isNotEqualTo(Operation.UNKNOWN);
        }
        // an operation of a newer control plane: the lenient agent reads it, and the job fails saying why
        assertThat(ControlPlane.JSON.treeToValue(JsonNodeFactory.instance.textNode("import"), Operation.class))
                .isEqualTo(Operation.UNKNOWN);
    }

    @Test
    void theAgentsLimitsAreTheControlPlanes() {
        JsonNode error = schema("JobError").path("properties");
        assertThat(error.path("summary").path("maxLength").asInt()).isEqualTo(ProtocolLimits.ERROR_SUMMARY);
        assertThat(error.path("detail").path("maxLength").asInt()).isEqualTo(ProtocolLimits.ERROR_DETAIL);
        assertThat(schema("JobResult")
                        .path("properties")
                        .path("resources")
                        .path("maxItems")
                        .asInt())
                .isEqualTo(ProtocolLimits.RESOURCES);
        JsonNode line = schema("LogLine").path("properties");
        assertThat(line.path("message").path("maxLength").asInt()).isEqualTo(ProtocolLimits.LOG_MESSAGE);
        assertThat(line.path("type").path("maxLength").asInt()).isEqualTo(ProtocolLimits.LOG_TYPE);
        assertThat(line.path("level").path("maxLength").asInt()).isEqualTo(ProtocolLimits.LOG_LEVEL);
        assertThat(schema("LogBatch")
                        .path("properties")
                        .path("lines")
                        .path("maxItems")
                        .asInt())
                .isEqualTo(ProtocolLimits.LOG_LINES);
    }

    /** A value of the schema with every property present: what a control plane that sends everything would send. */
    private static JsonNode example(JsonNode schema) {
        JsonNodeFactory nodes = JsonNodeFactory.instance;
        if (schema.has("$ref")) {
            return example(resolved(schema));
        }
        if (schema.has("enum")) {
            return schema.path("enum").get(0);
        }
        String type = schema.path("type").asText("");
        switch (type) {
            case "object" -> {
                ObjectNode object = nodes.objectNode();
                schema.path("properties").properties().forEach(e -> object.set(e.getKey(), example(e.getValue())));
                if (schema.path("additionalProperties").isObject()) {
                    object.set("key", example(schema.path("additionalProperties")));
                } else if (!schema.has("properties")) {
                    object.put("key", "value");
                }
                return object;
            }
            case "array" -> {
                return nodes.arrayNode().add(example(schema.path("items")));
            }
            case "string" -> {
                return switch (schema.path("format").asText("")) {
                    case "uuid" -> nodes.textNode("0b5b9a4e-7c1d-4f7e-9a53-2d7f6c1e8a90");
                    case "date-time" -> nodes.textNode("2026-12-02T08:00:00Z");
                    default -> nodes.textNode("text");
                };
            }
            case "integer", "number" -> {
                return nodes.numberNode(1);
            }
            case "boolean" -> {
                return nodes.booleanNode(true);
            }
            default -> {
                return nodes.objectNode().put("any", "value");
            }
        }
    }

    /** The record components (recursively) that stayed null: fields the answer did not carry under the agent's name. */
    private static List<String> missing(Object value, String path) {
        List<String> missing = new ArrayList<>();
        if (value == null) {
            missing.add(path);
            return missing;
        }
        if (value instanceof Collection<?> items) {
            int i = 0;
            for (Object item : items) {
                missing.addAll(missing(item, path + "[" + i++ + "]"));
            }
            return missing;
        }
        Class<?> type = value.getClass();
        if (!type.isRecord()) {
            return missing;
        }
        for (RecordComponent component : type.getRecordComponents()) {
            try {
                missing.addAll(missing(component.getAccessor().invoke(value), path + "." + component.getName()));
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }
        return missing;
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(item -> texts.add(item.asText()));
        return texts;
    }
}
