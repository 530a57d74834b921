package dev.polystack.platform.project;

import dev.polystack.platform.testing.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.polystack.platform.testing.Api.admin;
import static dev.polystack.platform.testing.Api.as;
import static dev.polystack.platform.testing.Api.createOrg;
import static dev.polystack.platform.testing.Api.problem;
import static dev.polystack.platform.testing.Api.tokenFor;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

@QuarkusTest
@QuarkusTestResource(PostgresResource.class)
class ProjectResourceTest {

    @Test
    void developersCreateRenameAndDeleteProjects() {
        String org = createOrg();
        String dev = tokenFor(org, "developer");
        as(dev).body(Map.of("id", "shop", "name", "Shop"))
                .post("/api/v1/orgs/{org}/projects", org)
                .then()
                .statusCode(201)
                .header("Location", containsString("/projects/shop"))
                .body("name", equalTo("Shop"));
        as(dev).header("If-Match", "\"0\"")
                .body(Map.of("name", "Web shop"))
                .put("/api/v1/orgs/{org}/projects/shop", org)
                .then()
                .statusCode(200)
                .body("name", equalTo("Web shop"))
                .body("version", equalTo(1));
        as(dev).delete("/api/v1/orgs/{org}/projects/shop", org).then().statusCode(204);
        problem(as(dev).get("/api/v1/orgs/{org}/projects/shop", org), 404, "not-found")
                .body("detail", equalTo("project `shop` does not exist"));
    }

    @Test
    void viewersReadButDoNotWrite() {
        String org = createOrg();
        admin().body(Map.of("id", "shop", "name", "Shop"))
                .post("/api/v1/orgs/{org}/projects", org)
                .then()
                .statusCode(201);
        String viewer = tokenFor(org, "viewer");
        as(viewer).get("/api/v1/orgs/{org}/projects/shop", org).then().statusCode(200);
        problem(
                as(viewer).body(Map.of("id", "x", "name", "X")).post("/api/v1/orgs/{org}/projects", org),
                403,
                "forbidden");
        problem(as(viewer).delete("/api/v1/orgs/{org}/projects/shop", org), 403, "forbidden");
    }

    @Test
    void validatesTheBody() {
        String org = createOrg();
        problem(
                        admin().body(Map.of("id", "-bad-", "name", "")).post("/api/v1/orgs/{org}/projects", org),
                        400,
                        "validation")
                .body("errors.pointer", containsInAnyOrder("/id", "/name"));
        problem(
                        admin().body(Map.of("id", "ok", "name", 42, "extra", true))
                                .post("/api/v1/orgs/{org}/projects", org),
                        400,
                        "validation")
                .body("errors[0].pointer", equalTo("/extra"));
    }

    @Test
    void duplicateIsAConflictAndAProjectWithEnvironmentsStays() {
        String org = createOrg();
        admin().body(Map.of("id", "shop", "name", "Shop"))
                .post("/api/v1/orgs/{org}/projects", org)
                .then()
                .statusCode(201);
        problem(
                admin().body(Map.of("id", "shop", "name", "Shop")).post("/api/v1/orgs/{org}/projects", org),
                409,
                "conflict");
        admin().body(Map.of("id", "dev"))
                .post("/api/v1/orgs/{org}/env-types", org)
                .then()
                .statusCode(201);
        admin().body(Map.of("id", "one", "env_type_id", "dev"))
                .post("/api/v1/orgs/{org}/projects/shop/envs", org)
                .then()
                .statusCode(201);
        problem(admin().delete("/api/v1/orgs/{org}/projects/shop", org), 409, "in-use")
                .body("detail", equalTo("project `shop` is still used by environments shop/one"));
    }

    @Test
    void listsPageByPageInAStableOrder() {
        String org = createOrg();
        for (int i = 0; i < 7; i++) {
            admin().body(Map.of("id", "p" + i, "name", "P" + i))
                    .post("/api/v1/orgs/{org}/projects", org)
                    .then()
                    .statusCode(201);
        }
        List<String> seen = new ArrayList<>();
        String token = null;
        do {
            var request = admin().queryParam("limit", 3);
            if (token != null) {
                request.queryParam("page_token", token);
            }
            var page = request.get("/api/v1/orgs/{org}/projects", org)
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath();
            seen.addAll(page.getList("items.id"));
            token = page.getString("next_page_token");
        } while (token != null);
        assertThat(seen).containsExactly("p0", "p1", "p2", "p3", "p4", "p5", "p6");
        problem(admin().queryParam("limit", 0).get("/api/v1/orgs/{org}/projects", org), 400, "validation")
                .body("errors[0].pointer", equalTo("limit"));
        problem(admin().queryParam("page_token", "%%%").get("/api/v1/orgs/{org}/projects", org), 400, "validation")
                .body("errors[0].pointer", equalTo("page_token"));
    }

    @Test
    void anotherTenantsProjectsAreNotFound() {
        String org = createOrg();
        String other = createOrg();
        admin().body(Map.of("id", "secret", "name", "S"))
                .post("/api/v1/orgs/{org}/projects", other)
                .then()
                .statusCode(201);
        String owner = tokenFor(org, "owner");
        problem(as(owner).get("/api/v1/orgs/{org}/projects/secret", other), 404, "not-found");
        problem(as(owner).delete("/api/v1/orgs/{org}/projects/secret", other), 404, "not-found");
        admin().get("/api/v1/orgs/{org}/projects/secret", other).then().statusCode(200);
    }
}
