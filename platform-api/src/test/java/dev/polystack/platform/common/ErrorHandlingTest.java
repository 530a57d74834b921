package dev.polystack.platform.common;

import dev.polystack.platform.testing.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;

import static dev.polystack.platform.testing.Api.admin;
import static dev.polystack.platform.testing.Api.createOrg;
import static dev.polystack.platform.testing.Api.problem;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

@QuarkusTest
@QuarkusTestResource(PostgresResource.class)
class ErrorHandlingTest {

    @Test
    void aBodyOverOneMebibyteIsRejectedWith413() {
        String org = createOrg();
        String big = "x".repeat(1024 * 1024 + 10);
        var response = admin().body(Map.of("id", "p", "name", big)).post("/api/v1/orgs/{org}/projects", org);
        problem(response, 413, "payload-too-large");
    }

    @Test
    void bodiesSentOverHttp2AreReadAndLimitedToo() throws Exception {
        String org = createOrg();
        // Java's client upgrades plain HTTP to HTTP/2 (h2c) when the server accepts
        HttpClient client =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
        URI projects = URI.create(RestAssured.baseURI + ":" + RestAssured.port + "/api/v1/orgs/" + org + "/projects");
        // a first request without a body upgrades the connection; the bodies then travel over HTTP/2
        HttpResponse<String> upgraded = client.send(
                HttpRequest.newBuilder(projects)
                        .header("Authorization", "Bearer " + PostgresResource.ADMIN_TOKEN)
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(upgraded.version()).isEqualTo(HttpClient.Version.HTTP_2);
        for (int i = 0; i < 2; i++) {
            var created = client.send(
                    HttpRequest.newBuilder(projects)
                            .header("Authorization", "Bearer " + PostgresResource.ADMIN_TOKEN)
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString("{\"id\":\"p" + i + "\",\"name\":\"P\"}"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            assertThat(created.version()).isEqualTo(HttpClient.Version.HTTP_2);
        }
        var tooLarge = client.send(
                HttpRequest.newBuilder(projects)
                        .header("Authorization", "Bearer " + PostgresResource.ADMIN_TOKEN)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(
                                "{\"id\":\"big\",\"name\":\"" + "x".repeat(2 * 1024 * 1024) + "\"}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(tooLarge.statusCode()).isEqualTo(413);
        assertThat(tooLarge.body()).contains("payload-too-large");
    }

    @Test
    void aFormIsRefusedBeforeItIsReadEvenAMalformedMultipartOne() {
        String org = createOrg();
        // multipart without a boundary, as a fuzzer sent it: its decoding never ended
        problem(
                admin().contentType("multipart/form-data")
                        .body("{}".getBytes())
                        .post("/api/v1/orgs/{org}/projects", org),
                415,
                "unsupported-media-type");
        problem(
                given().header("Authorization", "Basic eDp5")
                        .contentType("multipart/form-data")
                        .body("{}".getBytes())
                        .post("/api/state/v1/00000000-0000-0000-0000-000000000000/thing/default/app.a"),
                415,
                "unsupported-media-type");
        problem(
                admin().contentType("application/x-www-form-urlencoded")
                        .formParam("id", "p")
                        .post("/api/v1/orgs/{org}/projects", org),
                415,
                "unsupported-media-type");
    }

    @Test
    void anUnsupportedMediaTypeIsAProblem() {
        String org = createOrg();
        problem(
                admin().contentType("text/plain").body("hello").post("/api/v1/orgs/{org}/projects", org),
                415,
                "unsupported-media-type");
    }

    @Test
    void aWrongMethodIsAProblem() {
        problem(admin().patch("/api/v1/orgs"), 405, "method-not-allowed");
    }

    @Test
    void aWrongTypeNamesTheNestedField() {
        String org = createOrg();
        problem(
                        admin().body(Map.of("id", "r", "output_schema", Map.of(), "developer_accessible", "yes please"))
                                .post("/api/v1/orgs/{org}/resource-types", org),
                        400,
                        "validation")
                .body("errors[0].pointer", equalTo("/developer_accessible"))
                .body("detail", equalTo("/developer_accessible: expected a boolean"));
    }

    @Test
    void aMissingBodyIsAValidationProblem() {
        problem(admin().post("/api/v1/orgs"), 400, "validation");
    }

    @Test
    void theRequestIdIsEchoedAndQuoted() {
        given().header("X-Request-Id", "trace-123")
                .get("/api/v1/orgs")
                .then()
                .statusCode(401)
                .header("X-Request-Id", "trace-123")
                .body("request_id", equalTo("trace-123"));
    }

    @Test
    void responsesNeverCarryStackTraces() {
        admin().body("{\"id\": [1, 2, {\"deep\": true}], \"name\": null}")
                .post("/api/v1/orgs")
                .then()
                .statusCode(400)
                .body(not(containsString("Exception")))
                .body(not(containsString("at dev.polystack")));
    }

    @Test
    void healthAndMetricsNeedNoToken() {
        given().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
        given().get("/q/health/live").then().statusCode(200);
        given().get("/q/metrics").then().statusCode(200).body(containsString("http_server_requests"));
    }
}
