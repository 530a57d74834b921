package dev.polystack.platform.audit;

import dev.polystack.platform.testing.Api;
import dev.polystack.platform.testing.PostgresResource;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static dev.polystack.platform.testing.Api.admin;
import static dev.polystack.platform.testing.Api.as;
import static dev.polystack.platform.testing.Api.createOrg;
import static dev.polystack.platform.testing.Api.problem;
import static dev.polystack.platform.testing.Api.tokenFor;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;

@QuarkusTest
@QuarkusTestResource(PostgresResource.class)
class AuditLogTest {

    @Inject
    AgroalDataSource dataSource;

    @Test
    void everyChangeIsRecordedWithWhoWhatTargetRequestAndOutcome() {
        String org = createOrg();
        String pe = tokenFor(org, "platform-engineer");
        as(pe).header("X-Request-Id", "audit-1")
                .body(Map.of("id", "staging"))
                .post("/api/v1/orgs/{org}/env-types", org)
                .then()
                .statusCode(201);
        as(pe).body(Map.of("id", "Bad!"))
                .post("/api/v1/orgs/{org}/env-types", org)
                .then()
                .statusCode(400);
        as(tokenFor(org, "viewer"))
                .delete("/api/v1/orgs/{org}/env-types/staging", org)
                .then()
                .statusCode(403);
        as(pe).body(Map.of(
                        "provider_type",
                        "aws",
                        "id",
                        "x",
                        "source",
                        "hashicorp/aws",
                        "secrets",
                        Map.of("key", "top-secret-audit-value")))
                .post("/api/v1/orgs/{org}/providers", org)
                .then()
                .statusCode(201);

        var events = admin().queryParam("action", "createEnvType")
                .get("/api/v1/orgs/{org}/audit-events", org)
                .then()
                .statusCode(200)
                .body("items", hasSize(2))
                .extract()
                .jsonPath();
        assertThat(events.getString("items[1].target")).isEqualTo("/api/v1/orgs/" + org + "/env-types/staging");
        assertThat(events.getString("items[1].outcome")).isEqualTo("success");
        assertThat(events.getString("items[1].request_id")).isEqualTo("audit-1");
        assertThat(events.getString("items[1].actor")).startsWith("service:" + org + "/pe-");
        assertThat(events.getInt("items[0].status")).isEqualTo(400);
        assertThat(events.getString("items[0].outcome")).isEqualTo("failure");
        admin().queryParam("action", "deleteEnvType")
                .get("/api/v1/orgs/{org}/audit-events", org)
                .then()
                .body("items[0].status", equalTo(403))
                .body("items[0].actor", containsString("service:" + org + "/viewer-"));
        admin().get("/api/v1/orgs/{org}/audit-events", org)
                .then()
                .statusCode(200)
                .body(not(containsString("top-secret-audit-value")))
                .body("items.action", hasItem("createProvider"));
    }

    @Test
    void tokensRunnersAndDeploymentsAreAuditedToo() throws Exception {
        String org = createOrg();
        admin().body(Map.of("id", "ci", "role", "developer"))
                .post("/api/v1/orgs/{org}/service-users", org)
                .then()
                .statusCode(201);
        String tokenId = admin().body(Map.of("name", "pipeline"))
                .post("/api/v1/orgs/{org}/service-users/ci/tokens", org)
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        admin().delete("/api/v1/orgs/{org}/service-users/ci/tokens/{id}", org, tokenId)
                .then()
                .statusCode(200);
        admin().body(Map.of(
                        "id",
                        "r",
                        "public_key",
                        dev.polystack.platform.runner.RunnerKeys.toPem(
                                java.security.KeyPairGenerator.getInstance("Ed25519")
                                        .generateKeyPair()
                                        .getPublic())))
                .post("/api/v1/orgs/{org}/runners", org)
                .then()
                .statusCode(201);
        admin().get("/api/v1/orgs/{org}/audit-events", org)
                .then()
                .statusCode(200)
                .body("items.action", hasItem("createServiceUserToken"))
                .body("items.action", hasItem("revokeServiceUserToken"))
                .body("items.action", hasItem("createRunner"))
                .body("items.action", hasItem("createOrg"))
                .body("items.actor", everyItem(equalTo("user:admin")));
    }

    @Test
    void theTargetFilterIsAPlainPrefixWhateverCharactersItHas() {
        String org = createOrg();
        for (String user : List.of("ci_bot", "cixbot")) {
            admin().body(Map.of("username", user + org, "email", user + org + "@example.test", "role", "viewer"))
                    .post("/api/v1/orgs/{org}/members", org)
                    .then()
                    .statusCode(201);
        }
        String members = "/api/v1/orgs/" + org + "/members/";
        // LIKE's wildcards are plain characters in the filter: _ is not any one character, % not any run
        Map<String, List<String>> found = Map.of(
                "ci_b", List.of(members + "ci_bot" + org),
                "ci%", List.of(),
                "ci", List.of(members + "cixbot" + org, members + "ci_bot" + org));
        found.forEach((prefix, targets) -> admin().queryParam("target", members + prefix)
                .get("/api/v1/orgs/{org}/audit-events", org)
                .then()
                .statusCode(200)
                .body("items.target", equalTo(targets)));
        List<Map<String, Object>> all = admin().get("/api/v1/orgs/{org}/audit-events", org)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("items");
        assertThat(all).hasSizeGreaterThanOrEqualTo(3);
        assertThat(Api.allPages(1, "/api/v1/orgs/{org}/audit-events", org))
                .as("page by page")
                .isEqualTo(all);
    }

    @Test
    void filtersByActorTargetAndTimeAndPages() {
        String org = createOrg();
        Instant before = Instant.now().minusSeconds(1);
        for (int i = 0; i < 3; i++) {
            admin().body(Map.of("id", "p" + i, "name", "P"))
                    .post("/api/v1/orgs/{org}/projects", org)
                    .then()
                    .statusCode(201);
        }
        admin().queryParam("target", "/api/v1/orgs/" + org + "/projects/p1")
                .get("/api/v1/orgs/{org}/audit-events", org)
                .then()
                .body("items", hasSize(1));
        admin().queryParam("actor", "nobody")
                .get("/api/v1/orgs/{org}/audit-events", org)
                .then()
                .body("items", hasSize(0));
        admin().queryParam("from", before.toString())
                .queryParam("action", "createProject")
                .queryParam("limit", 2)
                .get("/api/v1/orgs/{org}/audit-events", org)
                .then()
                .body("items", hasSize(2))
                .body("next_page_token", not(equalTo(null)));
        problem(admin().queryParam("from", "yesterday").get("/api/v1/orgs/{org}/audit-events", org), 400, "validation")
                .body("errors[0].pointer", equalTo("from"));
        problem(as(tokenFor(org, "developer")).get("/api/v1/orgs/{org}/audit-events", org), 403, "forbidden");
        problem(as(tokenFor(createOrg(), "owner")).get("/api/v1/orgs/{org}/audit-events", org), 404, "not-found");
    }

    @Test
    void attemptsWithoutValidCredentialsAreRecordedAsAnonymous() throws Exception {
        String org = createOrg();
        io.restassured.RestAssured.given()
                .contentType("application/json")
                .body(Map.of("id", "p", "name", "P"))
                .post("/api/v1/orgs/{org}/projects", org)
                .then()
                .statusCode(401);
        as("pst_not-a-real-token")
                .contentType("application/json")
                .body(Map.of("id", "p", "name", "P"))
                .post("/api/v1/orgs/{org}/projects", org)
                .then()
                .statusCode(401);
        // Refused on the event loop, the event is written by a worker shortly after the answer.
        String count =
                "select count(*) from audit_event where actor_name = 'anonymous' and status = 401 and target = '/api/v1/orgs/"
                        + org + "/projects'";
        await().atMost(java.time.Duration.ofSeconds(10)).untilAsserted(() -> {
            try (Connection connection = dataSource.getConnection();
                    Statement statement = connection.createStatement();
                    var rows = statement.executeQuery(count)) {
                rows.next();
                assertThat(rows.getInt(1))
                        .as("refused attempts in the audit log")
                        .isEqualTo(2);
            }
        });
    }

    @Test
    void actorsAreQualifiedByTheirOrganizationAndFilteredByThatName() {
        String acme = createOrg();
        String other = createOrg();
        String acmeOwn = serviceUserToken(acme, "own", "platform-engineer");
        String otherOwn = serviceUserToken(other, "own", "platform-engineer");
        as(acmeOwn)
                .body(Map.of("id", "staging"))
                .post("/api/v1/orgs/{org}/env-types", acme)
                .then()
                .statusCode(201);
        as(otherOwn)
                .body(Map.of("id", "staging"))
                .post("/api/v1/orgs/{org}/env-types", other)
                .then()
                .statusCode(201);

        admin().queryParam("actor", "service:" + acme + "/own")
                .get("/api/v1/orgs/{org}/audit-events", acme)
                .then()
                .statusCode(200)
                .body("items", hasSize(1))
                .body("items[0].action", equalTo("createEnvType"))
                .body("items[0].actor_kind", equalTo("service"));
        admin().queryParam("actor", "service:own")
                .get("/api/v1/orgs/{org}/audit-events", acme)
                .then()
                .body("items", hasSize(0));
    }

    @Test
    void attemptsByCallersWhoAreNotMembersGoToTheInstanceLogNotTheOrganizations() {
        String acme = createOrg();
        String other = createOrg();
        String acmeOwn = serviceUserToken(acme, "own", "platform-engineer");
        String intruder = serviceUserToken(other, "own", "owner");
        as(acmeOwn)
                .header("X-Request-Id", "member-1")
                .body(Map.of("id", "x"))
                .post("/api/v1/orgs/{org}/env-types", acme)
                .then()
                .statusCode(201);
        for (int i = 0; i < 3; i++) {
            as(intruder)
                    .header("X-Request-Id", "probe-" + i)
                    .body(Map.of("id", "x"))
                    .delete("/api/v1/orgs/{org}/env-types/x", acme)
                    .then()
                    .statusCode(404);
        }

        admin().get("/api/v1/orgs/{org}/audit-events", acme)
                .then()
                .statusCode(200)
                .body("items.request_id", hasItem("member-1"))
                .body("items.request_id", not(hasItem(containsString("probe-"))))
                .body("items.actor", not(hasItem("service:" + other + "/own")));
        var outside = admin().queryParam("actor", "service:" + other + "/own")
                .get("/api/v1/audit-events")
                .then()
                .statusCode(200)
                .body("items", hasSize(3))
                .extract()
                .jsonPath();
        assertThat(outside.getList("items.org", String.class)).containsOnly(acme);
        assertThat(outside.getList("items.status", Integer.class)).containsOnly(404);
        assertThat(outside.getList("items.action", String.class)).containsOnly("deleteEnvType");
        admin().queryParam("org", acme)
                .queryParam("actor", "service:" + other + "/own")
                .get("/api/v1/audit-events")
                .then()
                .statusCode(200)
                .body("items", hasSize(3));
        problem(as(intruder).get("/api/v1/audit-events"), 403, "forbidden");
    }

    private static String serviceUserToken(String org, String id, String role) {
        admin().body(Map.of("id", id, "role", role))
                .post("/api/v1/orgs/{org}/service-users", org)
                .then()
                .statusCode(201);
        return admin().body(Map.of("name", "test"))
                .post("/api/v1/orgs/{org}/service-users/{id}/tokens", org, id)
                .then()
                .statusCode(201)
                .extract()
                .path("token");
    }

    @Test
    void theLogCannotBeChangedOrDeleted() throws SQLException {
        String org = createOrg();
        admin().body(Map.of("id", "p", "name", "P"))
                .post("/api/v1/orgs/{org}/projects", org)
                .then()
                .statusCode(201);
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement()) {
            assertThatThrownBy(() -> statement.executeUpdate("update audit_event set actor_name = 'someone else'"))
                    .hasMessageContaining("append-only");
            assertThatThrownBy(() -> statement.executeUpdate("delete from audit_event"))
                    .hasMessageContaining("append-only");
        }
    }
}
