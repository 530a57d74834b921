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

    @Test
    void convertsValidatorLocationsToJsonPointers() {
        var path = new com.networknt.schema.path.NodePath(com.networknt.schema.path.PathType.JSON_POINTER)
                .append("a").append(0).append("key.with/slash");
        assertThat(OutputSchema.pointer(path)).isEqualTo("/a/0/key.with~1slash");
        assertThat(OutputSchema.pointer(null)).isEmpty();
    }
}
