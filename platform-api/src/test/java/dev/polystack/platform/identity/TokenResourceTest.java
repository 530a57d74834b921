package dev.polystack.platform.identity;

import dev.polystack.platform.testing.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.UUID;

import static dev.polystack.platform.testing.Api.admin;
import static dev.polystack.platform.testing.Api.anonymous;
import static dev.polystack.platform.testing.Api.as;
import static dev.polystack.platform.testing.Api.createOrg;
import static dev.polystack.platform.testing.Api.problem;
import static dev.polystack.platform.testing.Api.tokenFor;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

@QuarkusTest
@QuarkusTestResource(PostgresResource.class)
class TokenResourceTest {

    @Test
    void aCallerMakesListsAndRevokesItsOwnTokens() {
        String org = createOrg();
        String token = tokenFor(org, "developer");
        var created = as(token)
                .body(Map.of("name", "laptop"))
                .post("/api/v1/tokens")
                .then()
                .statusCode(201)
                .body("token", matchesPattern("^pst_[A-Za-z0-9_-]{43}$"))
                .extract();
        String second = created.path("token");
        as(second).get("/api/v1/tokens").then().statusCode(200).body("items.name", hasItem("laptop"));
        as(token)
                .delete("/api/v1/tokens/{id}", created.path("id").toString())
                .then()
                .statusCode(200);
        problem(as(second).get("/api/v1/tokens"), 401, "unauthenticated");
    }

    @Test
    void aTokensUseIsRecordedAndAnExpiredOrRevokedOneIsRefused() {
        String org = createOrg();
        String token = tokenFor(org, "developer");
        var created = as(token)
                .body(Map.of("name", "ci"))
                .post("/api/v1/tokens")
                .then()
                .statusCode(201)
                .extract();
        String ci = created.path("token");
        as(token).get("/api/v1/tokens").then().body("items.find { it.name == 'ci' }.last_used_at", nullValue());
        as(ci).get("/api/v1/me")
                .then()
                .statusCode(200)
                .body("name", equalTo(as(token).get("/api/v1/me").path("name")));
        as(token).get("/api/v1/tokens").then().body("items.find { it.name == 'ci' }.last_used_at", notNullValue());
        as(token)
                .delete("/api/v1/tokens/{id}", created.path("id").toString())
                .then()
                .statusCode(200);
        problem(as(ci).get("/api/v1/me"), 401, "unauthenticated");
    }

    @Test
    void nobodyRevokesSomeoneElsesToken() {
        String org = createOrg();
        String mine = tokenFor(org, "owner");
        String theirsId = as(tokenFor(org, "viewer"))
                .body(Map.of("name", "x"))
                .post("/api/v1/tokens")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        problem(as(mine).delete("/api/v1/tokens/{id}", theirsId), 404, "not-found");
        problem(as(mine).delete("/api/v1/tokens/{id}", UUID.randomUUID().toString()), 404, "not-found");
    }

    @Test
    void tokensNeedAName() {
        problem(admin().body(Map.of("name", " ")).post("/api/v1/tokens"), 400, "validation")
                .body("errors[0].pointer", equalTo("/name"));
    }

    @Test
    void theAdministratorIsAnInstanceAdmin() {
        admin().get("/api/v1/me")
                .then()
                .statusCode(200)
                .body("instance_admin", equalTo(true))
                .body("name", equalTo("admin"));
        problem(anonymous().get("/api/v1/me"), 401, "unauthenticated");
    }
}
