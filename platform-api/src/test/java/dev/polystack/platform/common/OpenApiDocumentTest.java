package dev.polystack.platform.common;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.polystack.platform.testing.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code openapi/openapi.yaml} must equal what the server publishes. To regenerate it after changing
 * the API: {@code ./mvnw -pl platform-api test -Dtest=OpenApiDocumentTest -Dopenapi.update=true}.
 */
@QuarkusTest
@QuarkusTestResource(PostgresResource.class)
class OpenApiDocumentTest {

    private static final Path DOCUMENT = Path.of("..", "openapi", "openapi.yaml");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @Test
    void publishedDocumentEqualsTheOneInTheRepository() throws Exception {
        String served = given().accept("application/yaml")
                .get("/q/openapi")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        if (Boolean.getBoolean("openapi.update")) {
            Files.writeString(DOCUMENT, served);
        }
        assertThat(DOCUMENT)
                .as("openapi/openapi.yaml exists; regenerate with -Dopenapi.update=true")
                .exists();
        JsonNode expected = YAML.readTree(Files.readString(DOCUMENT));
        JsonNode actual = YAML.readTree(served);
        assertThat(actual)
                .as("the served OpenAPI document differs from openapi/openapi.yaml; regenerate it with "
                        + "./mvnw -pl platform-api test -Dtest=OpenApiDocumentTest -Dopenapi.update=true")
                .isEqualTo(expected);
    }

    @Test
    void everyOperationDocumentsProblemResponses() throws Exception {
        JsonNode document = YAML.readTree(
                given().accept("application/yaml").get("/q/openapi").asString());
        document.path("paths")
                .forEach(path -> path.forEach(operation -> {
                    if (operation.has("responses")) {
                        assertThat(operation
                                        .path("responses")
                                        .path("default")
                                        .path("content")
                                        .has("application/problem+json"))
                                .as(
                                        "operation %s documents problem responses",
                                        operation.path("operationId").asText())
                                .isTrue();
                    }
                }));
    }
}
