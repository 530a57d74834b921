package dev.polystack.platform.testing;

import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import org.hamcrest.Matchers;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import static io.restassured.RestAssured.given;

/** Small helpers that make test data through the real API, each test with its own unique ids. */
public final class Api {

    private Api() {}

    public static RequestSpecification as(String token) {
        return given().auth().oauth2(token).contentType(ContentType.JSON).accept(ContentType.JSON);
    }

    /**
     * Every item of a list, read a page of {@code limit} items at a time by following each page's {@code
     * next_page_token}, in the order the pages gave them.
     */
    public static List<Map<String, Object>> allPages(int limit, String path, Object... pathParams) {
        List<Map<String, Object>> items = new ArrayList<>();
        String token = null;
        do {
            RequestSpecification request = admin().queryParam("limit", limit);
            if (token != null) {
                request.queryParam("page_token", token);
            }
            JsonPath page = request.get(path, pathParams)
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath();
            List<Map<String, Object>> pageItems = page.getList("items");
            if (pageItems.size() > limit) {
                throw new IllegalStateException("a page of " + pageItems.size() + " items, over its limit " + limit);
            }
            items.addAll(pageItems);
            token = page.getString("next_page_token");
        } while (token != null);
        return items;
    }

    public static RequestSpecification admin() {
        return as(PostgresResource.ADMIN_TOKEN);
    }

    public static RequestSpecification anonymous() {
        return given().contentType(ContentType.JSON).accept(ContentType.JSON);
    }

    /** Asserts that a response is an RFC 9457 problem of the given status and type. */
    public static ValidatableResponse problem(Response response, int status, String type) {
        return response.then()
                .statusCode(status)
                .contentType("application/problem+json")
                .body("status", Matchers.equalTo(status))
                .body("type", Matchers.equalTo("https://polystack.dev/problems/" + type))
                .body("request_id", Matchers.notNullValue());
    }

    public static String uniqueId(String prefix) {
        return prefix + "-"
                + Long.toString(ThreadLocalRandom.current().nextLong(36L * 36 * 36 * 36 * 36 * 36, Long.MAX_VALUE), 36)
                        .substring(0, 8);
    }

    public static String createOrg() {
        return createOrg("org");
    }

    /** Creates an organization whose id starts with {@code prefix}. */
    public static String createOrg(String prefix) {
        String id = uniqueId(prefix);
        admin().body(Map.of("id", id, "name", "Org " + id))
                .post("/api/v1/orgs")
                .then()
                .statusCode(201);
        return id;
    }

    /** A token of a new service user with the given role in the organization. */
    public static String tokenFor(String org, String role) {
        String user = uniqueId(role.replace("platform-engineer", "pe"));
        admin().body(Map.of("id", user, "role", role))
                .post("/api/v1/orgs/{org}/service-users", org)
                .then()
                .statusCode(201);
        return admin().body(Map.of("name", "test"))
                .post("/api/v1/orgs/{org}/service-users/{id}/tokens", org, user)
                .then()
                .statusCode(201)
                .extract()
                .path("token");
    }
}
