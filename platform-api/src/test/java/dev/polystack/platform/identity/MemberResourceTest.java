package dev.polystack.platform.identity;

import dev.polystack.platform.testing.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static dev.polystack.platform.testing.Api.admin;
import static dev.polystack.platform.testing.Api.as;
import static dev.polystack.platform.testing.Api.createOrg;
import static dev.polystack.platform.testing.Api.problem;
import static dev.polystack.platform.testing.Api.tokenFor;
import static dev.polystack.platform.testing.Api.uniqueId;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

@QuarkusTest
@QuarkusTestResource(PostgresResource.class)
class MemberResourceTest {

    @Test
    void ownerAddsAUserByUsernameAndChangesTheirRole() {
        String org = createOrg();
        String user = uniqueId("alice");
        admin().body(Map.of("username", user, "email", user + "@example.test", "role", "developer"))
                .post("/api/v1/orgs/{org}/members", org)
                .then()
                .statusCode(201)
                .body("username", equalTo(user))
                .body("role", equalTo("developer"));
        admin().get("/api/v1/orgs/{org}/members", org).then().statusCode(200).body("items.username", hasItem(user));
        admin().header("If-Match", "\"0\"")
                .body(Map.of("role", "platform-engineer"))
                .put("/api/v1/orgs/{org}/members/{user}", org, user)
                .then()
                .statusCode(200)
                .body("role", equalTo("platform-engineer"));
        problem(
                admin().header("If-Match", "\"0\"")
                        .body(Map.of("role", "viewer"))
                        .put("/api/v1/orgs/{org}/members/{user}", org, user),
                409,
                "stale-version");
    }

    @Test
    void theSameUserJoinsSeveralOrganizationsFoundByEmail() {
        String first = createOrg();
        String second = createOrg();
        String user = uniqueId("bob");
        admin().body(Map.of("username", user, "email", user + "@example.test", "role", "viewer"))
                .post("/api/v1/orgs/{org}/members", first)
                .then()
                .statusCode(201);
        admin().body(Map.of("email", user + "@example.test", "role", "owner"))
                .post("/api/v1/orgs/{org}/members", second)
                .then()
                .statusCode(201)
                .body("username", equalTo(user));
    }

    @Test
    void addingByAnUnknownEmailAloneIsRejected() {
        String org = createOrg();
        problem(
                        admin().body(Map.of("email", uniqueId("nobody") + "@example.test", "role", "viewer"))
                                .post("/api/v1/orgs/{org}/members", org),
                        422,
                        "unprocessable")
                .body("errors[0].pointer", equalTo("/username"));
    }

    @Test
    void aMemberNeedsAUsernameOrEmail() {
        String org = createOrg();
        problem(admin().body(Map.of("role", "viewer")).post("/api/v1/orgs/{org}/members", org), 400, "validation")
                .body("detail", containsString("give a username or an email"));
    }

    @Test
    void addingAMemberTwiceIsAConflict() {
        String org = createOrg();
        String user = uniqueId("carol");
        admin().body(Map.of("username", user, "role", "viewer"))
                .post("/api/v1/orgs/{org}/members", org)
                .then()
                .statusCode(201);
        problem(
                admin().body(Map.of("username", user, "role", "owner")).post("/api/v1/orgs/{org}/members", org),
                409,
                "conflict");
    }

    @Test
    void theLastOwnerCannotLeaveOrBeDemoted() {
        String org = createOrg();
        String user = uniqueId("dave");
        admin().body(Map.of("username", user, "role", "owner"))
                .post("/api/v1/orgs/{org}/members", org)
                .then()
                .statusCode(201);
        problem(
                        admin().body(Map.of("role", "viewer")).put("/api/v1/orgs/{org}/members/{u}", org, user),
                        409,
                        "conflict")
                .body("detail", containsString("last owner"));
        problem(admin().delete("/api/v1/orgs/{org}/members/{u}", org, user), 409, "conflict");
        String second = uniqueId("erin");
        admin().body(Map.of("username", second, "role", "owner"))
                .post("/api/v1/orgs/{org}/members", org)
                .then()
                .statusCode(201);
        admin().delete("/api/v1/orgs/{org}/members/{u}", org, user).then().statusCode(204);
        problem(admin().get("/api/v1/orgs/{org}/members/{u}", org, user), 404, "not-found");
    }

    @Test
    void onlyOwnersManageMembers() {
        String org = createOrg();
        problem(
                as(tokenFor(org, "platform-engineer"))
                        .body(Map.of("username", uniqueId("x"), "role", "viewer"))
                        .post("/api/v1/orgs/{org}/members", org),
                403,
                "forbidden");
        as(tokenFor(org, "viewer"))
                .get("/api/v1/orgs/{org}/members", org)
                .then()
                .statusCode(200);
    }

    @Test
    void anotherTenantsMembersAreNotFound() {
        String org = createOrg();
        String other = createOrg();
        problem(as(tokenFor(org, "owner")).get("/api/v1/orgs/{org}/members", other), 404, "not-found");
        problem(
                as(tokenFor(org, "owner"))
                        .body(Map.of("username", uniqueId("x"), "role", "owner"))
                        .post("/api/v1/orgs/{org}/members", other),
                404,
                "not-found");
    }
}
