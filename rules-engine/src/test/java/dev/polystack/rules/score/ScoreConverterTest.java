package dev.polystack.rules.score;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.polystack.rules.Problem;
import dev.polystack.rules.RulesException;
import dev.polystack.rules.manifest.Manifest;
import dev.polystack.rules.manifest.ManifestParser;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** Score files from the Score project's own examples (see src/test/resources/score/NOTICE). */
class ScoreConverterTest {

    private static String example(String path) throws IOException {
        try (InputStream in = ScoreConverterTest.class.getResourceAsStream("/score/" + path)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static ObjectNode convert(String... paths) throws IOException {
        List<JsonNode> documents = new ArrayList<>();
        for (String path : paths) {
            documents.addAll(ScoreConverter.read(example(path)));
        }
        return ScoreConverter.convert(documents, ScoreConverter.DEFAULT_WORKLOAD_TYPE);
    }

    @Test
    void aWorkloadWithAResourceBecomesAManifestTheParserAccepts() throws IOException {
        ObjectNode manifest = convert("examples/resources/postgres/score.yaml");
        JsonNode workload = manifest.path("workloads").path("my-workload").path("resources");
        assertThat(workload.path("workload").path("type").asText()).isEqualTo("score-workload");
        JsonNode variables = workload.path("workload")
                .path("params")
                .path("containers")
                .path("my-container")
                .path("variables");
        assertThat(variables.path("POSTGRES_HOST").asText()).isEqualTo("${resources.my-postgres.outputs.host}");
        assertThat(variables.path("POSTGRES_PASSWORD").asText()).isEqualTo("${resources.my-postgres.outputs.password}");
        assertThat(workload.path("workload")
                        .path("params")
                        .path("metadata")
                        .path("name")
                        .asText())
                .isEqualTo("my-workload");
        assertThat(workload.path("my-postgres").path("type").asText()).isEqualTo("postgres");
        assertThat(manifest.has("shared")).isFalse();

        Manifest parsed = new ManifestParser().parse(manifest);
        assertThat(parsed.workloads().get("my-workload").resources()).containsOnlyKeys("workload", "my-postgres");
    }

    @Test
    void resourcesWithTheSameTypeClassAndIdInTwoWorkloadsAreOneSharedResource() throws IOException {
        ObjectNode manifest = convert(
                "examples/samples/aks-store-demo/makeline/score.yaml",
                "examples/samples/aks-store-demo/order/score.yaml");
        assertThat(manifest.path("shared").path("orders-queue").path("id").asText())
                .isEqualTo("orders-queue");
        assertThat(manifest.path("shared").path("orders-queue").path("type").asText())
                .isEqualTo("amqp");
        assertThat(manifest.path("workloads")
                        .path("makeline-service")
                        .path("resources")
                        .has("orders-queue"))
                .isFalse();
        assertThat(manifest.path("workloads")
                        .path("makeline-service")
                        .path("resources")
                        .path("workload")
                        .path("params")
                        .path("containers")
                        .path("makeline-service")
                        .path("variables")
                        .path("ORDER_QUEUE_URI")
                        .asText())
                .isEqualTo("amqp://${shared.orders-queue.outputs.host}:${shared.orders-queue.outputs.port}");
        assertThat(manifest.path("workloads")
                        .path("order-service")
                        .path("resources")
                        .path("workload")
                        .path("params")
                        .path("containers")
                        .path("order-service")
                        .path("variables")
                        .path("ORDER_QUEUE_HOSTNAME")
                        .asText())
                .isEqualTo("${shared.orders-queue.outputs.host}");

        Manifest parsed = new ManifestParser().parse(manifest);
        assertThat(parsed.shared()).containsOnlyKeys("orders-queue");
        assertThat(parsed.workloads()).containsOnlyKeys("makeline-service", "order-service");
    }

    @Test
    void serviceAndMetadataAnnotationsOfTheWorkloadGoIntoItsParams() throws IOException {
        ObjectNode manifest = convert("examples/samples/onlineboutique/cart/score.yaml");
        JsonNode params = manifest.path("workloads")
                .path("cart")
                .path("resources")
                .path("workload")
                .path("params");
        assertThat(params.path("service")
                        .path("ports")
                        .path("grpc")
                        .path("port")
                        .asInt())
                .isEqualTo(7070);
        assertThat(params.path("metadata").path("annotations").path("tags").asText())
                .isEqualTo("dotnet,backend,grpc");
        assertThat(params.path("containers")
                        .path("cart")
                        .path("variables")
                        .path("REDIS_ADDR")
                        .asText())
                .startsWith("${resources.redis-cart.outputs.host}:${resources.redis-cart.outputs.port},user=");
    }

    @Test
    void whatHasNoPlaceInAManifestIsRefusedNamingWhereItIs() throws IOException {
        RulesException e = catchThrowableOfType(RulesException.class, () -> convert("spec/score-full.yaml"));
        assertThat(e.problems()).extracting(Problem::path).containsExactly("/resources/resource-one1/metadata");

        String escape = """
                apiVersion: score.dev/v1b1
                metadata: { name: web }
                containers:
                  main:
                    image: nginx
                    variables:
                      LITERAL: "$${not-a-placeholder}"
                      UNKNOWN: "${resources.nothing.host}"
                      OTHER: "${pod.ip}"
                      NAME: "${metadata.name}-svc"
                """;
        RulesException refused = catchThrowableOfType(
                RulesException.class,
                () -> ScoreConverter.convert(ScoreConverter.read(escape), ScoreConverter.DEFAULT_WORKLOAD_TYPE));
        assertThat(refused.problems())
                .extracting(Problem::path)
                .containsExactlyInAnyOrder(
                        "/containers/main/variables/LITERAL",
                        "/containers/main/variables/UNKNOWN",
                        "/containers/main/variables/OTHER");
        assertThat(refused.problems()).extracting(Problem::message).anyMatch(m -> m.contains("no resource `nothing`"));
    }

    @Test
    void emptyDocumentsBetweenSeparatorsAreNotWorkloads() {
        String score =
                "---\napiVersion: score.dev/v1b1\nmetadata: { name: web }\ncontainers: { main: { image: nginx } }\n---\n---\n";
        assertThat(ScoreConverter.read(score)).hasSize(1);
    }

    @Test
    void metadataPlaceholdersAreReplacedByTheirValue() {
        String score = "apiVersion: score.dev/v1b1\nmetadata: { name: web }\ncontainers:\n  main:\n    image: nginx\n"
                + "    variables: { SERVICE: \"${metadata.name}-svc\" }\n";
        ObjectNode manifest = ScoreConverter.convert(ScoreConverter.read(score), "k8s-workload");
        JsonNode workload =
                manifest.path("workloads").path("web").path("resources").path("workload");
        assertThat(workload.path("type").asText()).isEqualTo("k8s-workload");
        assertThat(workload.path("params")
                        .path("containers")
                        .path("main")
                        .path("variables")
                        .path("SERVICE")
                        .asText())
                .isEqualTo("web-svc");
    }

    @Test
    void aFileThatIsNotScoreIsRefusedByTheSchemaWithThePointer() {
        RulesException e = catchThrowableOfType(
                RulesException.class,
                () -> ScoreConverter.convert(
                        ScoreConverter.read(
                                "apiVersion: score.dev/v1b1\nmetadata: { name: x }\ncontainers: {}\nextra: 1\n---\napiVersion: score.dev/v2\nmetadata: { name: y }\n"
                                        + "containers: { c: { image: i } }\n"),
                        ScoreConverter.DEFAULT_WORKLOAD_TYPE));
        assertThat(e.problems())
                .extracting(Problem::path)
                .contains("document 1 (x): /metadata/name", "document 1 (x): /", "document 2 (y): /apiVersion");
        assertThat(catchThrowableOfType(RulesException.class, () -> ScoreConverter.read(""))
                        .getMessage())
                .contains("no Score workload");
        assertThat(catchThrowableOfType(RulesException.class, () -> ScoreConverter.read("a: ["))
                        .getMessage())
                .contains("cannot be read");
    }
}
