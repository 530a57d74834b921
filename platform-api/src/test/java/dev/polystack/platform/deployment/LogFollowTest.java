package dev.polystack.platform.deployment;

import dev.polystack.platform.testing.Api;
import dev.polystack.platform.testing.PostgresResource;
import dev.polystack.platform.testing.Scenario;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static dev.polystack.platform.testing.Api.admin;
import static dev.polystack.platform.testing.Api.as;
import static dev.polystack.platform.testing.Api.problem;
import static dev.polystack.platform.testing.Scenario.graph;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Following a deployment's logs holds no worker thread while it waits: with only 8 workers, 20
 * followers of a live deployment leave the runner protocol and the API free to work, and each
 * follower then sees the lines and the end.
 */
@QuarkusTest
@TestProfile(LogFollowTest.FewWorkers.class)
class LogFollowTest {

    private static final int FOLLOWERS = 20;

    /** A worker pool smaller than the number of followers. */
    public static class FewWorkers implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.thread-pool.max-threads", "8", "quarkus.thread-pool.core-threads", "1");
        }
    }

    @TestHTTPResource("/")
    URL base;

    @Test
    void followersOfALiveDeploymentHoldNoWorkerWhileTheyWait() throws Exception {
        Scenario s = new Scenario(1);
        s.manifest(graph("a", List.of()));
        String id = s.deploy();
        Map<String, Object> job = s.claimAll().get("app.a");
        URI logs = base.toURI()
                .resolve("api/v1/orgs/" + s.org + "/projects/shop/envs/prod/deployments/" + id + "/logs?follow=true");
        HttpClient client =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            List<CompletableFuture<HttpResponse<Stream<String>>>> followers = new ArrayList<>();
            for (int i = 0; i < FOLLOWERS; i++) {
                HttpRequest request = HttpRequest.newBuilder(logs)
                        .header("Authorization", "Bearer " + PostgresResource.ADMIN_TOKEN)
                        .header("Accept", "text/event-stream")
                        .GET()
                        .build();
                followers.add(client.sendAsync(request, HttpResponse.BodyHandlers.ofLines()));
            }
            List<HttpResponse<Stream<String>>> streams = new ArrayList<>();
            for (CompletableFuture<HttpResponse<Stream<String>>> follower : followers) {
                streams.add(follower.get(30, TimeUnit.SECONDS));
            }
            assertThat(streams)
                    .allSatisfy(stream -> assertThat(stream.statusCode()).isEqualTo(200));

            // all followers wait now; the API and the runner protocol still answer
            admin().get("/api/v1/orgs/{org}/projects/shop/envs/prod/deployments/{id}", s.org, id)
                    .then()
                    .statusCode(200);
            s.runner.log(job.get("job_id"), 0, "first line", "second line");
            s.succeed(job);

            for (HttpResponse<Stream<String>> stream : streams) {
                List<String> lines = stream.body().toList();
                // "event:" and "data:" may or may not be followed by a space (both are valid SSE)
                assertThat(lines)
                        .filteredOn(line -> line.startsWith("data:") && line.contains("line\""))
                        .hasSize(2)
                        .first()
                        .asString()
                        .contains("first line");
                assertThat(lines).anyMatch(line -> line.matches("event: ?end"));
            }
        });
    }

    @Test
    void aCallerThatAcceptsAnythingGetsAPageAndARefusedStreamIsAProblem() {
        Scenario s = new Scenario(1);
        s.manifest(graph("a", List.of()));
        String id = s.deploy();
        String logs = "/api/v1/orgs/{org}/projects/shop/envs/prod/deployments/{id}/logs";
        given().auth()
                .oauth2(PostgresResource.ADMIN_TOKEN)
                .get(logs, s.org, id)
                .then()
                .statusCode(200)
                .contentType("application/json")
                .body("items", hasSize(0));
        given().auth()
                .oauth2(PostgresResource.ADMIN_TOKEN)
                .accept("*/*")
                .get(logs, s.org, id)
                .then()
                .statusCode(200)
                .contentType("application/json");
        // access is checked before the stream starts: an unknown deployment is a 404 problem, not an empty stream
        problem(
                admin().accept("text/event-stream").queryParam("follow", true).get(logs, s.org, UUID.randomUUID()),
                404,
                "not-found");
        problem(
                as(Api.tokenFor(Api.createOrg(), "viewer"))
                        .accept("text/event-stream")
                        .get(logs, s.org, id),
                404,
                "not-found");
    }

    @Test
    void followingWithoutAskingForEventsSaysHow() {
        Scenario s = new Scenario(1);
        s.manifest(graph("a", List.of()));
        String id = s.deploy();
        problem(
                        admin().queryParam("follow", true)
                                .get("/api/v1/orgs/{org}/projects/shop/envs/prod/deployments/{id}/logs", s.org, id),
                        406,
                        "not-acceptable")
                .body("detail", containsString("text/event-stream"));
    }
}
