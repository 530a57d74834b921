package dev.polystack.platform.security;

import dev.polystack.platform.testing.PostgresResource;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.polystack.platform.testing.Api.admin;
import static dev.polystack.platform.testing.Api.createOrg;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

@QuarkusTest
@QuarkusTestResource(PostgresResource.class)
class HardeningTest {

    @Inject
    AgroalDataSource dataSource;

    @Test
    void responsesCarrySecurityHeaders() {
        admin().get("/api/v1/me")
                .then()
                .statusCode(200)
                .header("X-Content-Type-Options", "nosniff")
                .header("X-Frame-Options", "DENY")
                .header("Referrer-Policy", "no-referrer")
                .header("Cache-Control", "no-store")
                .header("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'");
        given().get("/api/v1/me").then().statusCode(401).header("X-Content-Type-Options", "nosniff");
    }

    /** Every known secret of a scenario is looked for, as text, in every column of every table. */
    @Test
    void noPlaintextSecretTokenOrStateIsStoredAnywhere() throws Exception {
        String org = createOrg();
        String providerSecret = "provider-secret-" + org;
        String moduleSecret = "module-secret-" + org;
        admin().body(Map.of(
                        "provider_type",
                        "aws",
                        "id",
                        "p",
                        "source",
                        "hashicorp/aws",
                        "secrets",
                        Map.of("secret_key", providerSecret)))
                .post("/api/v1/orgs/{org}/providers", org)
                .then()
                .statusCode(201);
        admin().body(Map.of("id", "db"))
                .post("/api/v1/orgs/{org}/resource-types", org)
                .then()
                .statusCode(201);
        admin().body(Map.of(
                        "id",
                        "m",
                        "resource_type",
                        "db",
                        "module_source",
                        "inline",
                        "module_source_code",
                        "variable \"password\" {}",
                        "secret_inputs",
                        Map.of("password", moduleSecret)))
                .post("/api/v1/orgs/{org}/modules", org)
                .then()
                .statusCode(201)
                .body("secret_inputs.password", equalTo("***"));
        admin().body(Map.of("id", "ci", "role", "developer"))
                .post("/api/v1/orgs/{org}/service-users", org)
                .then()
                .statusCode(201);
        String token = admin().body(Map.of("name", "t"))
                .post("/api/v1/orgs/{org}/service-users/ci/tokens", org)
                .then()
                .statusCode(201)
                .extract()
                .path("token");

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
                        String row = rs.getString(1);
                        for (String secret : List.of(providerSecret, moduleSecret, token, token.substring(4))) {
                            if (row.contains(secret)) {
                                leaks.add(table + ": " + secret.substring(0, 12) + "…");
                            }
                        }
                    }
                }
            }
        }
        assertThat(leaks).isEmpty();
    }
}
