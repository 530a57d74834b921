package dev.polystack.rules;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OutputSchemaTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    @Test
    void acceptsAValidSchemaAndListsItsOutputs() {
        OutputSchema schema = OutputSchema.of(json("""
                {"type":"object","required":["host"],"properties":{"host":{"type":"string"},"port":{"type":"integer"}}}"""));
        assertThat(schema.declaredOutputs()).containsExactly("host", "port");
    }

    @Test
    void rejectsASchemaWithAWrongKeywordValueNamingWhere() {
        assertThatThrownBy(() -> OutputSchema.of(json("""
                {"type":"object","properties":{"port":{"type":"integr"}}}""")))
                .isInstanceOf(OutputSchema.ValidationException.class)
                .satisfies(e -> assertThat(((OutputSchema.ValidationException) e).violations())
                        .anySatisfy(v -> assertThat(v.pointer()).isEqualTo("/properties/port/type")));
    }

    @Test
    void rejectsSomethingThatIsNotASchemaAtAll() {
        assertThatThrownBy(() -> OutputSchema.of(json("[1,2]")))
                .isInstanceOf(OutputSchema.ValidationException.class)
                .hasMessageContaining("must be an object or a boolean");
    }

    @Test
    void reportsEveryViolationOfOutputs() {
        OutputSchema schema = OutputSchema.of(json("""
                {"type":"object","required":["host"],"properties":{"host":{"type":"string"},"port":{"type":"integer"}}}"""));
        assertThat(schema.validate(json("{\"host\":\"db\",\"port\":5432}"))).isEmpty();
        assertThat(schema.validate(json("{\"port\":\"x\"}")))
                .extracting(OutputSchema.Violation::pointer)
                .containsExactlyInAnyOrder("", "/port");
    }

    private static OutputSchema.UnusableException unusable(String schema) {
        Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(() -> OutputSchema.of(json(schema)));
        assertThat(thrown).isInstanceOf(OutputSchema.UnusableException.class);
        return (OutputSchema.UnusableException) thrown;
    }

    @Test
    void refusesReferenceCyclesNamingTheReference() {
        assertThat(unusable("{\"$ref\":\"#\"}").violations()).singleElement().satisfies(v -> {
            assertThat(v.pointer()).isEqualTo("/$ref");
            assertThat(v.message()).contains("cycle");
        });
        assertThat(unusable("""
                {"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}""").violations())
                .extracting(OutputSchema.Violation::pointer)
                .contains("/$defs/a/$ref");
        // recursion through properties is a cycle too: outputs nested deep enough would exhaust the stack
        assertThat(unusable("""
                {"type":"object","properties":{"child":{"$ref":"#"}}}""").violations())
                .extracting(OutputSchema.Violation::pointer)
                .containsExactly("/properties/child/$ref");
        assertThat(unusable("""
                {"$defs":{"node":{"$anchor":"node","properties":{"next":{"$ref":"#node"}}}},"$ref":"#/$defs/node"}""").violations())
                .extracting(OutputSchema.Violation::pointer)
                .contains("/$defs/node/properties/next/$ref");
    }

    @Test
    void refusesReferencesOutsideTheSchemaAndOnesThatLeadNowhere() {
        assertThat(unusable("{\"$ref\":\"https://example.com/schema.json\"}").violations())
                .singleElement()
                .satisfies(v -> assertThat(v.message()).contains("within this schema"));
        assertThat(unusable("{\"properties\":{\"a\":{\"$ref\":\"other.json#/x\"}}}")
                        .violations())
                .extracting(OutputSchema.Violation::pointer)
                .containsExactly("/properties/a/$ref");
        assertThat(unusable("{\"$ref\":\"#/$defs/missing\"}").violations())
                .singleElement()
                .satisfies(v -> assertThat(v.message()).contains("refers to nothing"));
    }

    @Test
    void refusesNestingPastTheBoundWithoutExhaustingTheStack() {
        StringBuilder deep = new StringBuilder();
        for (int i = 0; i < 450; i++) {
            deep.append("{\"properties\":{\"a\":");
        }
        deep.append("{}").append("}}".repeat(450));
        OutputSchema.UnusableException refused = unusable(deep.toString());
        assertThat(refused.violations()).singleElement().satisfies(v -> {
            assertThat(v.message()).contains("64");
            assertThat(v.pointer()).startsWith("/properties/a/properties/a/");
        });
    }

    @Test
    void localReferencesWithoutCyclesStillWork() {
        OutputSchema schema = OutputSchema.of(json("""
                {"$defs":{"port":{"type":"integer","minimum":1}},"type":"object",
                 "properties":{"port":{"$ref":"#/$defs/port"},"admin_port":{"$ref":"#/$defs/port"}}}"""));
        assertThat(schema.validate(json("{\"port\":5432,\"admin_port\":0}")))
                .extracting(OutputSchema.Violation::pointer)
                .containsExactly("/admin_port");
    }

    @Test
    void aStoredSchemaThatIsNoLongerAcceptedFailsValidationNotTheCaller() {
        OutputSchema stored =
                OutputSchema.stored(json("{\"type\":\"object\",\"properties\":{\"child\":{\"$ref\":\"#\"}}}"));
        assertThat(stored.declaredOutputs()).containsExactly("child");
        assertThat(stored.validate(json("{\"child\":{}}")))
                .singleElement()
                .satisfies(
                        v -> assertThat(v.message()).contains("cannot be used").contains("/properties/child/$ref"));
    }

    @Test
    void convertsValidatorLocationsToJsonPointers() {
        var path = new com.networknt.schema.path.NodePath(com.networknt.schema.path.PathType.JSON_POINTER)
                .append("a")
                .append(0)
                .append("key.with/slash");
        assertThat(OutputSchema.pointer(path)).isEqualTo("/a/0/key.with~1slash");
        assertThat(OutputSchema.pointer(null)).isEmpty();
    }
}
