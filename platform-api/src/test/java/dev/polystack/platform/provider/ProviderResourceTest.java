package dev.polystack.platform.provider;

import dev.polystack.platform.testing.PostgresResource;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Map;

import static dev.polystack.platform.testing.Api.admin;
import static dev.polystack.platform.testing.Api.as;
import static dev.polystack.platform.testing.Api.createOrg;
import static dev.polystack.platform.testing.Api.problem;
import static dev.polystack.platform.testing.Api.tokenFor;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

@QuarkusTest
@QuarkusTestResource(PostgresResource.class)
class ProviderResourceTest {

    @Inject
    AgroalDataSource dataSource;

    private static Map<String, Object> aws(String id) {
        return Map.of(
                "provider_type",
                "aws",
                "id",
                id,
                "source",
                "hashicorp/aws",
                "version_constraint",
                "~> 5.0",
                "configuration",
                Map.of("region", "eu-west-1"),
                "secrets",
                Map.of("secret_key", "very-secret-value-123"));
    }

    @Test
    void secretsAreWriteOnlyAndEncryptedAtRest() throws Exception {
        String org = createOrg();
        as(tokenFor(org, "platform-engineer"))
                .body(aws("default"))
                .post("/api/v1/orgs/{org}/providers", org)
                .then()
                .statusCode(201)
                .header("Location", containsString("/providers/aws/default"))
                .body("secrets.secret_key", equalTo("***"))
                .body(not(containsString("very-secret-value-123")));
        as(tokenFor(org, "viewer"))
                .get("/api/v1/orgs/{org}/providers/aws/default", org)
                .then()
                .statusCode(200)
                .body("configuration.region", equalTo("eu-west-1"))
                .body("secrets.secret_key", equalTo("***"));
        try (Connection c = dataSource.getConnection();
                PreparedStatement s = c.prepareStatement(
                        "select p.*::text from provider p join organization o on o.id = p.org_id where o.slug = ?")) {
            s.setString(1, org);
            try (ResultSet rs = s.executeQuery()) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).doesNotContain("very-secret-value-123");
            }
        }
        try (Connection c = dataSource.getConnection();
                PreparedStatement s = c.prepareStatement(
                        "select secret_configuration from provider p join organization o on o.id = p.org_id where o.slug = ?")) {
            s.setString(1, org);
            try (ResultSet rs = s.executeQuery()) {
                assertThat(rs.next()).isTrue();
                assertThat(new String(rs.getBytes(1), StandardCharsets.ISO_8859_1))
                        .doesNotContain("very-secret-value-123");
            }
        }
    }

    @Test
    void anUpdateKeepsSecretsSentAsStarsAndReplacesOthers() {
        String org = createOrg();
        admin().body(aws("default"))
                .post("/api/v1/orgs/{org}/providers", org)
                .then()
                .statusCode(201);
        admin().body(Map.of(
                        "source",
                        "hashicorp/aws",
                        "configuration",
                        Map.of("region", "us-east-1"),
                        "secrets",
                        Map.of("secret_key", "***", "token", "new"),
                        "version",
                        0))
                .put("/api/v1/orgs/{org}/providers/aws/default", org)
                .then()
                .statusCode(200)
                .body("configuration.region", equalTo("us-east-1"))
                .body("secrets.secret_key", equalTo("***"))
                .body("secrets.token", equalTo("***"));
        problem(
                        admin().body(Map.of("source", "hashicorp/aws", "secrets", Map.of("absent", "***")))
                                .put("/api/v1/orgs/{org}/providers/aws/default", org),
                        400,
                        "validation")
                .body("errors[0].pointer", equalTo("/secrets/absent"));
        problem(
                admin().body(Map.of("source", "hashicorp/aws", "version", 0))
                        .put("/api/v1/orgs/{org}/providers/aws/default", org),
                409,
                "stale-version");
    }

    @Test
    void validatesSourceAndNames() {
        String org = createOrg();
        problem(
                        admin().body(Map.of("provider_type", "aws", "id", "x", "source", "not a source"))
                                .post("/api/v1/orgs/{org}/providers", org),
                        400,
                        "validation")
                .body("errors[0].pointer", equalTo("/source"));
        problem(
                        admin().body(Map.of("provider_type", "AWS!", "id", "x", "source", "hashicorp/aws"))
                                .post("/api/v1/orgs/{org}/providers", org),
                        400,
                        "validation")
                .body("errors[0].pointer", equalTo("/provider_type"));
        problem(
                        admin().body(Map.of("provider_type", "aws", "source", "hashicorp/aws"))
                                .post("/api/v1/orgs/{org}/providers", org),
                        400,
                        "validation")
                .body("errors[0].pointer", equalTo("/id"));
        problem(
                        admin().body(Map.of(
                                        "provider_type",
                                        "aws",
                                        "id",
                                        "x",
                                        "source",
                                        "hashicorp/aws",
                                        "configuration",
                                        Map.of("k", "v"),
                                        "secrets",
                                        Map.of("k", "s")))
                                .post("/api/v1/orgs/{org}/providers", org),
                        400,
                        "validation")
                .body("errors[0].pointer", equalTo("/secrets/k"));
    }

    @Test
    void placeholdersInConfigurationAreChecked() {
        String org = createOrg();
        problem(
                        admin().body(Map.of(
                                        "provider_type",
                                        "aws",
                                        "id",
                                        "x",
                                        "source",
                                        "hashicorp/aws",
                                        "configuration",
                                        Map.of("region", "${shared.dns.outputs.region}")))
                                .post("/api/v1/orgs/{org}/providers", org),
                        400,
                        "validation")
                .body("errors[0].pointer", equalTo("/configuration/region"));
        admin().body(Map.of(
                        "provider_type",
                        "aws",
                        "id",
                        "y",
                        "source",
                        "hashicorp/aws",
                        "configuration",
                        Map.of("region", "${resources.net.outputs.region}", "alias", "${context.env_id}")))
                .post("/api/v1/orgs/{org}/providers", org)
                .then()
                .statusCode(201);
    }

    @Test
    void aMappedProviderCannotBeDeleted() {
        String org = createOrg();
        admin().body(aws("default"))
                .post("/api/v1/orgs/{org}/providers", org)
                .then()
                .statusCode(201);
        admin().body(Map.of("id", "db"))
                .post("/api/v1/orgs/{org}/resource-types", org)
                .then()
                .statusCode(201);
        admin().body(Map.of(
                        "id",
                        "rds",
                        "resource_type",
                        "db",
                        "module_source",
                        "inline",
                        "module_source_code",
                        "#",
                        "provider_mapping",
                        Map.of("aws", "aws.default")))
                .post("/api/v1/orgs/{org}/modules", org)
                .then()
                .statusCode(201);
        problem(admin().delete("/api/v1/orgs/{org}/providers/aws/default", org), 409, "in-use")
                .body("detail", equalTo("provider `aws.default` is still used by modules rds"));
    }

    @Test
    void rolesDuplicatesAndTenants() {
        String org = createOrg();
        admin().body(aws("default"))
                .post("/api/v1/orgs/{org}/providers", org)
                .then()
                .statusCode(201);
        problem(admin().body(aws("default")).post("/api/v1/orgs/{org}/providers", org), 409, "conflict");
        problem(
                as(tokenFor(org, "developer")).body(aws("other")).post("/api/v1/orgs/{org}/providers", org),
                403,
                "forbidden");
        problem(
                as(tokenFor(createOrg(), "owner")).get("/api/v1/orgs/{org}/providers/aws/default", org),
                404,
                "not-found");
        admin().queryParam("provider_type", "aws")
                .get("/api/v1/orgs/{org}/providers", org)
                .then()
                .statusCode(200)
                .body("items[0].id", equalTo("default"));
        admin().delete("/api/v1/orgs/{org}/providers/aws/default", org).then().statusCode(204);
    }
}
