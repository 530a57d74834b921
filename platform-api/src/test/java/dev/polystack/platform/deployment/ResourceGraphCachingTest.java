package dev.polystack.platform.deployment;

import dev.polystack.platform.testing.Api;
import dev.polystack.platform.testing.DeploymentTestProfile;
import dev.polystack.platform.testing.PostgresResource;
import dev.polystack.platform.testing.Scenario;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

import static dev.polystack.platform.testing.Api.admin;
import static dev.polystack.platform.testing.Scenario.graph;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Conditional reads of an environment's resource graph and of a deployment: an ETag while nothing can change
 * them, 304 for a client that has the current one, and a fresh answer as soon as anything could have changed.
 */
@QuarkusTest
@TestProfile(DeploymentTestProfile.class)
@QuarkusTestResource(PostgresResource.class)
class ResourceGraphCachingTest {

    private static final String GRAPH = "/api/v1/orgs/{org}/projects/shop/envs/prod/resource-graph";

    @Inject
    AgroalDataSource dataSource;

    @Test
    void aSettledGraphAnswers304ToItsETagAndANewDeploymentChangesIt() {
        Scenario s = new Scenario(4);
        s.manifest(graph("a", List.of(), "b", List.of("a")));
        String first = s.deploy();
        s.claimAll().values().forEach(s::succeed);
        s.claimAll().values().forEach(s::succeed);
        assertThat(s.status(first)).isEqualTo("succeeded");

        Response settled = admin().get(GRAPH, s.org);
        settled.then().statusCode(200);
        String etag = settled.header("ETag");
        assertThat(etag).as("ETag of a settled graph").isNotBlank();
        assertThat(settled.header("Cache-Control"))
                .as("a client may keep it but must ask again")
                .isEqualTo("private, no-cache");

        Response again = admin().header("If-None-Match", etag).get(GRAPH, s.org);
        again.then().statusCode(304);
        assertThat(again.body().asByteArray()).isEmpty();
        assertThat(again.header("ETag")).isEqualTo(etag);
        assertThat(admin().header("If-None-Match", "W/\"other\", " + etag)
                        .get(GRAPH, s.org)
                        .statusCode())
                .as("one of a list of ETags")
                .isEqualTo(304);
        assertThat(admin().header("If-None-Match", "W/\"other\"")
                        .get(GRAPH, s.org)
                        .statusCode())
                .isEqualTo(200);

        // the outputs are another representation, with their own ETag
        Response withOutputs = admin().queryParam("outputs", true).get(GRAPH, s.org);
        withOutputs.then().statusCode(200);
        assertThat(withOutputs.header("ETag")).isNotBlank().isNotEqualTo(etag);
        assertThat(admin().queryParam("outputs", true)
                        .header("If-None-Match", etag)
                        .get(GRAPH, s.org)
                        .statusCode())
                .isEqualTo(200);

        // a queued deployment shows its pending nodes: not what the client has
        String second = s.create(Map.of("mode", "deploy", "force", true))
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        Response changing = admin().header("If-None-Match", etag).get(GRAPH, s.org);
        changing.then().statusCode(200);
        assertThat(changing.header("ETag"))
                .as("no ETag while a deployment can change the graph")
                .isNull();
        s.claimAll().values().forEach(s::succeed);
        s.claimAll().values().forEach(s::succeed);
        assertThat(s.status(second)).isEqualTo("succeeded");

        Response after = admin().header("If-None-Match", etag).get(GRAPH, s.org);
        after.then().statusCode(200);
        assertThat(after.header("ETag")).isNotBlank().isNotEqualTo(etag);
    }

    /** Full reads of a settled graph are answered from the bytes kept under its tag, and never after the tag has moved on. */
    @Test
    void aKeptAnswerIsServedOnlyUnderItsOwnTag() throws Exception {
        Scenario s = new Scenario(4);
        s.manifest(graph("a", List.of()));
        s.deploy();
        s.claimAll().values().forEach(s::succeed);
        Response first = admin().get(GRAPH, s.org);
        Response kept = admin().get(GRAPH, s.org);
        assertThat(kept.header("ETag")).isEqualTo(first.header("ETag"));
        assertThat(kept.asString())
                .isEqualTo(first.asString())
                .contains("\"id\":\"app.a\"")
                .doesNotContain("app.b");

        s.manifest(graph("a", List.of(), "b", List.of("a")));
        String second = s.deploy();
        assertThat(admin().get(GRAPH, s.org).header("ETag"))
                .as("nothing is kept while it runs")
                .isNull();
        s.claimAll().values().forEach(s::succeed);
        assertThat(s.status(second)).isEqualTo("succeeded");
        Response after = admin().get(GRAPH, s.org);
        assertThat(after.header("ETag")).isNotEqualTo(first.header("ETag"));
        assertThat(after.asString()).contains("\"id\":\"app.b\"");
        assertThat(admin().get(GRAPH, s.org).asString()).isEqualTo(after.asString());

        // a client that accepts gzip gets the kept answer gzipped once; one that refuses it gets it plain
        URI uri = URI.create("http://localhost:" + RestAssured.port + GRAPH.replace("{org}", s.org));
        HttpResponse<byte[]> zipped = raw(uri, "gzip, deflate, br");
        assertThat(zipped.headers().firstValue("Content-Encoding")).hasValue("gzip");
        assertThat(zipped.headers().firstValue("Vary")).hasValue("Accept-Encoding");
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(zipped.body()))) {
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo(after.asString());
        }
        HttpResponse<byte[]> plain = raw(uri, "gzip;q=0, identity");
        assertThat(plain.headers().firstValue("Content-Encoding")).isEmpty();
        assertThat(new String(plain.body(), StandardCharsets.UTF_8)).isEqualTo(after.asString());
        assertThat(raw(uri, null).headers().firstValue("Content-Encoding")).isEmpty();
    }

    private static HttpResponse<byte[]> raw(URI uri, String acceptEncoding) throws Exception {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(uri).header("Authorization", "Bearer " + PostgresResource.ADMIN_TOKEN);
        if (acceptEncoding != null) {
            request.header("Accept-Encoding", acceptEncoding);
        }
        HttpResponse<byte[]> response =
                HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(response.statusCode()).isEqualTo(200);
        return response;
    }

    @Test
    void anEnvironmentWithoutDeploymentsHasAnETagAndTheFirstDeploymentChangesIt() {
        Scenario s = new Scenario(4);
        s.manifest(graph("a", List.of()));
        String etag = admin().get(GRAPH, s.org).then().statusCode(200).extract().header("ETag");
        assertThat(etag).isNotBlank();
        String id = s.deploy();
        s.claimAll().values().forEach(s::succeed);
        assertThat(s.status(id)).isEqualTo("succeeded");
        assertThat(admin().header("If-None-Match", etag).get(GRAPH, s.org).statusCode())
                .isEqualTo(200);
    }

    @Test
    void aConditionalReadIsStillAuthorized() {
        Scenario s = new Scenario(4);
        s.manifest(graph("a", List.of()));
        String etag = admin().get(GRAPH, s.org).then().statusCode(200).extract().header("ETag");
        String stranger = Api.tokenFor(Api.createOrg(), "viewer");
        assertThat(Api.as(stranger)
                        .header("If-None-Match", etag)
                        .get(GRAPH, s.org)
                        .statusCode())
                .as("a caller without a role in the organization learns nothing, not even that it is unchanged")
                .isIn(403, 404);
    }

    @Test
    void anEndedDeploymentAnswers304ToItsETag() {
        Scenario s = new Scenario(4);
        s.manifest(graph("a", List.of()));
        String id = s.deploy();
        String path = "/api/v1/orgs/{org}/projects/shop/envs/prod/deployments/{id}";
        assertThat(admin().get(path, s.org, id).header("ETag"))
                .as("a running deployment changes")
                .isNull();
        s.claimAll().values().forEach(s::succeed);
        assertThat(s.status(id)).isEqualTo("succeeded");
        Response ended = admin().get(path, s.org, id);
        String etag = ended.header("ETag");
        assertThat(etag).isNotBlank();
        assertThat(admin().header("If-None-Match", etag).get(path, s.org, id).statusCode())
                .isEqualTo(304);
    }

    /**
     * An upgrade whose migration rewrites what the answers are made of (V31 rewrote every active resource's
     * dependencies) must not leave clients with answers from before it: the tags of graphs and of ended deployments
     * name the database's newest migration. The migration is simulated by the row Flyway writes when it applies one
     * (a version later than any this build ships, which Flyway's validation ignores at the next start), removed after.
     */
    @Test
    void aMigrationOfTheDatabaseChangesTheTagsOfGraphsAndOfEndedDeployments() throws Exception {
        Scenario s = new Scenario(4);
        s.manifest(graph("a", List.of()));
        String id = s.deploy();
        s.claimAll().values().forEach(s::succeed);
        assertThat(s.status(id)).isEqualTo("succeeded");
        String deployment = "/api/v1/orgs/{org}/projects/shop/envs/prod/deployments/{id}";
        String graphTag =
                admin().get(GRAPH, s.org).then().statusCode(200).extract().header("ETag");
        String deploymentTag = admin().get(deployment, s.org, id)
                .then()
                .statusCode(200)
                .extract()
                .header("ETag");
        assertThat(admin().header("If-None-Match", graphTag).get(GRAPH, s.org).statusCode())
                .isEqualTo(304);

        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement()) {
            statement.executeUpdate("""
                    insert into flyway_schema_history (installed_rank, version, description, type, script, checksum,
                        installed_by, execution_time, success)
                    select max(installed_rank) + 1, '9999', 'a later release', 'SQL', 'V9999__a_later_release.sql', 0,
                        current_user, 1, true
                    from flyway_schema_history""");
            try {
                Response graphRead = admin().header("If-None-Match", graphTag).get(GRAPH, s.org);
                graphRead.then().statusCode(200);
                assertThat(graphRead.header("ETag")).isNotBlank().isNotEqualTo(graphTag);
                Response deploymentRead =
                        admin().header("If-None-Match", deploymentTag).get(deployment, s.org, id);
                deploymentRead.then().statusCode(200);
                assertThat(deploymentRead.header("ETag")).isNotBlank().isNotEqualTo(deploymentTag);
                assertThat(admin().header("If-None-Match", graphRead.header("ETag"))
                                .get(GRAPH, s.org)
                                .statusCode())
                        .as("the new tag is stable")
                        .isEqualTo(304);
            } finally {
                statement.executeUpdate("delete from flyway_schema_history where version = '9999'");
            }
        }
    }
}
