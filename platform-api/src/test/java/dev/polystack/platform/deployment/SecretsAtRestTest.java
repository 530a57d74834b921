package dev.polystack.platform.deployment;

import dev.polystack.platform.testing.DeploymentTestProfile;
import dev.polystack.platform.testing.PostgresResource;
import dev.polystack.platform.testing.Scenario;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static dev.polystack.platform.testing.Api.admin;
import static dev.polystack.platform.testing.Scenario.graph;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * After a real deployment — provider secret, secret module input, a sensitive output, state written
 * through the backend, logs — none of those values, nor the job's token, is in any table as text.
 */
@QuarkusTest
@TestProfile(DeploymentTestProfile.class)
@QuarkusTestResource(PostgresResource.class)
class SecretsAtRestTest {

    @Inject
    AgroalDataSource dataSource;

    @Test
    void noSecretOutputStateOrTokenIsStoredInPlainText() throws Exception {
        Scenario s = new Scenario(1);
        String moduleSecret = "module-secret-" + s.org;
        String outputSecret = "output-secret-" + s.org;
        String stateMarker = "state-marker-" + s.org;
        admin().get("/api/v1/orgs/{org}/modules/thing", s.org).then().statusCode(200);
        admin().body(Map.of(
                        "resource_type",
                        "thing",
                        "module_source",
                        "inline",
                        "module_source_code",
                        Scenario.DECLARATIONS + "variable \"password\" {\n  sensitive = true\n}\n",
                        "module_params",
                        Map.of("upstream", Map.of("type", "any", "is_optional", true)),
                        "module_inputs",
                        Map.of("name", "${context.env_id}-${context.res_id}"),
                        "provider_mapping",
                        Map.of("null", "null.default"),
                        "secret_inputs",
                        Map.of("password", moduleSecret)))
                .put("/api/v1/orgs/{org}/modules/thing", s.org)
                .then()
                .statusCode(200);
        s.manifest(graph("a", List.of()));
        s.deploy();
        Map<String, Object> job = s.claimAll().get("app.a");
        assertThat(((Map<?, ?>) job.get("inputs")).get("password")).isEqualTo(moduleSecret);
        assertThat(String.valueOf(job.get("sensitive_inputs"))).contains("password");
        @SuppressWarnings("unchecked")
        Map<String, Object> state = (Map<String, Object>) job.get("state");
        String auth = "Basic "
                + Base64.getEncoder()
                        .encodeToString(
                                (state.get("username") + ":" + state.get("password")).getBytes(StandardCharsets.UTF_8));
        String address = URI.create(state.get("address").toString()).getPath();
        given().header("Authorization", auth)
                .body("{\"ID\":\"l\"}")
                .request("LOCK", address)
                .then()
                .statusCode(200);
        given().header("Authorization", auth)
                .contentType("application/json")
                .body("{\"version\":4,\"serial\":1,\"lineage\":\"x\",\"outputs\":{\"m\":{\"value\":\"" + stateMarker
                        + "\"}},\"resources\":[]}")
                .queryParam("ID", "l")
                .post(address)
                .then()
                .statusCode(200);
        s.runner.log(job.get("job_id"), 0, "password is " + moduleSecret, "token " + Scenario.PROVIDER_SECRET);
        s.runner
                .result(
                        job.get("job_id"),
                        Map.of(
                                "status",
                                "succeeded",
                                "outputs",
                                Map.of(
                                        "name",
                                        Map.of("value", "n", "sensitive", false),
                                        "pw",
                                        Map.of("value", outputSecret, "sensitive", true))))
                .then()
                .statusCode(204);
        admin().queryParam("outputs", true)
                .get("/api/v1/orgs/{org}/projects/shop/envs/prod/resource-graph", s.org)
                .then()
                .statusCode(200)
                .body("nodes[0].outputs.pw", Matchers.is("***"))
                .body("nodes[0].outputs.name", Matchers.is("n"));
        // not asked for: no outputs, and nothing opened
        admin().get("/api/v1/orgs/{org}/projects/shop/envs/prod/resource-graph", s.org)
                .then()
                .statusCode(200)
                .body("nodes[0].id", Matchers.notNullValue())
                .body("nodes[0].outputs", Matchers.nullValue());

        List<String> secrets = List.of(
                Scenario.PROVIDER_SECRET,
                moduleSecret,
                outputSecret,
                stateMarker,
                state.get("password").toString());
        List<String> leaks = new ArrayList<>();
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement()) {
            List<String> tables = new ArrayList<>();
            try (ResultSet rs = statement.executeQuery("select tablename from pg_tables where schemaname = 'public'")) {
                while (rs.next()) {
                    tables.add(rs.getString(1));
                }
            }
            for (String table : tables) {
                try (ResultSet rs = statement.executeQuery("select t::text from \"" + table + "\" t")) {
                    while (rs.next()) {
                        for (String secret : secrets) {
                            if (rs.getString(1).contains(secret)) {
                                leaks.add(table + " holds " + secret.substring(0, 10) + "…");
                            }
                        }
                    }
                }
            }
        }
        assertThat(leaks).isEmpty();
    }
}
