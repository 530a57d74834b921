package dev.polystack.platform.identity;

import dev.polystack.platform.testing.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Map;

import static dev.polystack.platform.testing.Api.admin;
import static dev.polystack.platform.testing.Api.as;
import static dev.polystack.platform.testing.Api.createOrg;
import static dev.polystack.platform.testing.Api.problem;
import static dev.polystack.platform.testing.Api.tokenFor;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;

@QuarkusTest
@QuarkusTestResource(PostgresResource.class)
class ServiceUserResourceTest {

    @Test
    void ownerCreatesAServiceUserWhoseTokenWorksOnceShown() {
        String org = createOrg();
        String owner = tokenFor(org, "owner");
        as(owner)
                .body(Map.of("id", "ci", "role", "developer", "description", "pipeline"))
                .post("/api/v1/orgs/{org}/service-users", org)
                .then()
                .statusCode(201)
                .body("id", equalTo("ci"))
                .body("role", equalTo("developer"));
        String token = as(owner)
                .body(Map.of("name", "main"))
                .post("/api/v1/orgs/{org}/service-users/ci/tokens", org)
                .then()
                .statusCode(201)
                .body("token", startsWith("pst_"))
                .extract()
                .path("token");
        as(owner)
                .get("/api/v1/orgs/{org}/service-users/ci/tokens", org)
                .then()
                .statusCode(200)
                .body("items", everyItem(not(hasKey("token"))))
                .body("items.prefix", hasItem(token.substring(0, 8)));
        as(token)
                .get("/api/v1/me")
                .then()
                .statusCode(200)
                .body("name", equalTo("service:ci"))
                .body("service_user", equalTo(true))
                .body("memberships[0].org", equalTo(org))
                .body("memberships[0].role", equalTo("developer"));
    }

    @Test
    void aRevokedTokenStopsWorking() {
        String org = createOrg();
        admin().body(Map.of("id", "bot", "role", "viewer"))
                .post("/api/v1/orgs/{org}/service-users", org)
                .then()
                .statusCode(201);
        var created = admin().body(Map.of("name", "t"))
                .post("/api/v1/orgs/{org}/service-users/bot/tokens", org)
                .then()
                .statusCode(201)
                .extract();
        String token = created.path("token");
        as(token).get("/api/v1/orgs/{org}", org).then().statusCode(200);
        admin().delete(
                        "/api/v1/orgs/{org}/service-users/bot/tokens/{id}",
                        org,
                        created.path("id").toString())
                .then()
                .statusCode(200)
                .body("revoked_at", not(nullValue()));
        problem(as(token).get("/api/v1/orgs/{org}", org), 401, "unauthenticated");
    }

    @Test
    void deletingAServiceUserKillsItsTokens() {
        String org = createOrg();
        admin().body(Map.of("id", "gone", "role", "developer"))
                .post("/api/v1/orgs/{org}/service-users", org)
                .then()
                .statusCode(201);
        String token = admin().body(Map.of("name", "t"))
                .post("/api/v1/orgs/{org}/service-users/gone/tokens", org)
                .then()
                .statusCode(201)
                .extract()
                .path("token");
        admin().delete("/api/v1/orgs/{org}/service-users/gone", org).then().statusCode(204);
        problem(as(token).get("/api/v1/me"), 401, "unauthenticated");
        problem(admin().get("/api/v1/orgs/{org}/service-users/gone", org), 404, "not-found")
                .body("detail", equalTo("service user `gone` does not exist"));
    }

    @Test
    void rejectsATokenExpiryInThePast() {
        String org = createOrg();
        admin().body(Map.of("id", "ci", "role", "developer"))
                .post("/api/v1/orgs/{org}/service-users", org)
                .then()
                .statusCode(201);
        problem(
                        admin().body(Map.of(
                                        "name",
                                        "t",
                                        "expires_at",
                                        Instant.now().minusSeconds(60).toString()))
                                .post("/api/v1/orgs/{org}/service-users/ci/tokens", org),
                        400,
                        "validation")
                .body("errors[0].pointer", equalTo("/expires_at"));
    }

    @Test
    void rejectsAnUnknownRoleNamingTheField() {
        String org = createOrg();
        problem(
                        admin().body(Map.of("id", "ci", "role", "superuser"))
                                .post("/api/v1/orgs/{org}/service-users", org),
                        400,
                        "validation")
                .body("errors[0].pointer", equalTo("/role"));
    }

    @Test
    void duplicateServiceUserIsAConflict() {
        String org = createOrg();
        admin().body(Map.of("id", "ci", "role", "developer"))
                .post("/api/v1/orgs/{org}/service-users", org)
                .then()
                .statusCode(201);
        problem(
                admin().body(Map.of("id", "ci", "role", "viewer")).post("/api/v1/orgs/{org}/service-users", org),
                409,
                "conflict");
    }

    @Test
    void onlyOwnersManageServiceUsers() {
        String org = createOrg();
        problem(
                as(tokenFor(org, "platform-engineer"))
                        .body(Map.of("id", "x", "role", "viewer"))
                        .post("/api/v1/orgs/{org}/service-users", org),
                403,
                "forbidden");
        as(tokenFor(org, "viewer"))
                .get("/api/v1/orgs/{org}/service-users", org)
                .then()
                .statusCode(200);
        problem(as(tokenFor(org, "developer")).get("/api/v1/orgs/{org}/service-users/x/tokens", org), 403, "forbidden");
    }

    @Test
    void changesARoleWithOptimisticLocking() {
        String org = createOrg();
        long version = admin().body(Map.of("id", "ci", "role", "viewer"))
                .post("/api/v1/orgs/{org}/service-users", org)
                .then()
                .statusCode(201)
                .extract()
                .jsonPath()
                .getLong("version");
        admin().body(Map.of("role", "developer", "version", version))
                .put("/api/v1/orgs/{org}/service-users/ci", org)
                .then()
                .statusCode(200)
                .body("role", equalTo("developer"));
        problem(
                admin().body(Map.of("role", "owner", "version", version))
                        .put("/api/v1/orgs/{org}/service-users/ci", org),
                409,
                "stale-version");
    }

    @Test
    void anotherTenantsServiceUsersAreNotFound() {
        String org = createOrg();
        String other = createOrg();
        admin().body(Map.of("id", "ci", "role", "viewer"))
                .post("/api/v1/orgs/{org}/service-users", other)
                .then()
                .statusCode(201);
        String owner = tokenFor(org, "owner");
        problem(as(owner).get("/api/v1/orgs/{org}/service-users/ci", other), 404, "not-found");
        problem(
                as(owner).body(Map.of("name", "steal")).post("/api/v1/orgs/{org}/service-users/ci/tokens", other),
                404,
                "not-found");
    }
}
