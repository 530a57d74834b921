package dev.polystack.platform.organization;

import dev.polystack.platform.testing.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static dev.polystack.platform.testing.Api.admin;
import static dev.polystack.platform.testing.Api.anonymous;
import static dev.polystack.platform.testing.Api.as;
import static dev.polystack.platform.testing.Api.createOrg;
import static dev.polystack.platform.testing.Api.tokenFor;
import static dev.polystack.platform.testing.Api.uniqueId;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.startsWith;

@QuarkusTest
@QuarkusTestResource(PostgresResource.class)
class OrganizationResourceTest {

    @Test
    void instanceAdminCreatesAndReadsAnOrganization() {
        String id = uniqueId("acme");
        admin().body(Map.of("id", id, "name", "Acme Inc."))
                .post("/api/v1/orgs")
                .then()
                .statusCode(201)
                .header("Location", containsString("/api/v1/orgs/" + id))
                .header("ETag", "\"0\"")
                .body("id", equalTo(id))
                .body("name", equalTo("Acme Inc."))
                .body("created_at", notNullValue());

        admin().get("/api/v1/orgs/{org}", id).then().statusCode(200).body("name", equalTo("Acme Inc."));
    }

    @Test
    void rejectsAnInvalidSlugNamingTheField() {
        admin().body(Map.of("id", "Not_A_Slug", "name", "x"))
                .post("/api/v1/orgs")
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("type", equalTo("https://polystack.dev/problems/validation"))
                .body("errors[0].pointer", equalTo("/id"))
                .body("detail", startsWith("/id: must be 1-63 lowercase"));
    }

    @Test
    void rejectsUnknownFields() {
        admin().body(Map.of("id", uniqueId("o"), "name", "x", "colour", "red"))
                .post("/api/v1/orgs")
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("errors[0].pointer", equalTo("/colour"))
                .body("detail", containsString("unknown field `colour`"));
    }

    @Test
    void rejectsMalformedJson() {
        admin().body("{\"id\": ")
                .post("/api/v1/orgs")
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("type", equalTo("https://polystack.dev/problems/malformed-body"));
    }

    @Test
    void rejectsADuplicateWithConflict() {
        String id = createOrg();
        admin().body(Map.of("id", id, "name", "again"))
                .post("/api/v1/orgs")
                .then()
                .statusCode(409)
                .body("detail", equalTo("organization `" + id + "` already exists"));
    }

    @Test
    void anonymousCallersGetAProblemNotAStackTrace() {
        anonymous()
                .get("/api/v1/orgs")
                .then()
                .statusCode(401)
                .contentType("application/problem+json")
                .header("WWW-Authenticate", "Bearer")
                .body("type", equalTo("https://polystack.dev/problems/unauthenticated"));
        as("pst_not-a-real-token")
                .get("/api/v1/orgs")
                .then()
                .statusCode(401)
                .body("type", equalTo("https://polystack.dev/problems/unauthenticated"));
    }

    @Test
    void onlyInstanceAdminsCreateOrganizations() {
        String org = createOrg();
        String owner = tokenFor(org, "owner");
        as(owner)
                .body(Map.of("id", uniqueId("o"), "name", "x"))
                .post("/api/v1/orgs")
                .then()
                .statusCode(403)
                .body("type", equalTo("https://polystack.dev/problems/forbidden"));
    }

    @Test
    void anotherTenantsOrganizationIsNotFound() {
        String mine = createOrg();
        String theirs = createOrg();
        String token = tokenFor(mine, "owner");
        as(token)
                .get("/api/v1/orgs/{org}", theirs)
                .then()
                .statusCode(404)
                .body("detail", equalTo("organization `" + theirs + "` does not exist"));
        as(token)
                .get("/api/v1/orgs")
                .then()
                .statusCode(200)
                .body("items.id", hasItem(mine))
                .body("items.id", not(hasItem(theirs)));
    }

    @Test
    void staleVersionIsAConflict() {
        String org = createOrg();
        admin().header("If-Match", "\"0\"")
                .body(Map.of("name", "Renamed"))
                .put("/api/v1/orgs/{org}", org)
                .then()
                .statusCode(200)
                .header("ETag", "\"1\"")
                .body("name", equalTo("Renamed"));
        admin().header("If-Match", "\"0\"")
                .body(Map.of("name", "Again"))
                .put("/api/v1/orgs/{org}", org)
                .then()
                .statusCode(409)
                .body("type", equalTo("https://polystack.dev/problems/stale-version"));
    }

    @Test
    void developersCannotRenameTheOrganization() {
        String org = createOrg();
        as(tokenFor(org, "developer"))
                .body(Map.of("name", "Mine"))
                .put("/api/v1/orgs/{org}", org)
                .then()
                .statusCode(403)
                .body("detail", containsString("needs the role `owner`"));
    }

    @Test
    void deletesAnEmptyOrganization() {
        String org = createOrg();
        admin().delete("/api/v1/orgs/{org}", org).then().statusCode(204);
        admin().get("/api/v1/orgs/{org}", org).then().statusCode(404);
    }

    @Test
    void unknownEndpointsAnswerWithAProblem() {
        admin().get("/api/v1/nothing-here")
                .then()
                .statusCode(404)
                .contentType("application/problem+json")
                .body("detail", equalTo("no such endpoint: GET /api/v1/nothing-here"));
    }
}
