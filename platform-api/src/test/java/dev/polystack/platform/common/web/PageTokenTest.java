package dev.polystack.platform.common.web;

import dev.polystack.platform.testing.DeploymentTestProfile;
import dev.polystack.platform.testing.PostgresResource;
import dev.polystack.platform.testing.Scenario;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static dev.polystack.platform.testing.Api.admin;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A page token names the time and id of the last item of a page. One that names a time the API cannot have stored
 * (before year 1 or after year 9999; these are also beyond what PostgreSQL holds) is the caller's mistake, and every
 * list says so, naming the parameter. Before, the query refused the time, and the answer did not say which parameter
 * held it.
 */
@QuarkusTest
@TestProfile(DeploymentTestProfile.class)
@QuarkusTestResource(PostgresResource.class)
class PageTokenTest {

    @Test
    void aTokenOfATimeNeverStoredIsRefusedByEveryList() {
        Scenario s = new Scenario(1);
        String webhook = s.webhook();
        String env = "/api/v1/orgs/{org}/projects/shop/envs/prod";
        List<String> lists = List.of(
                "/api/v1/orgs/{org}/audit-events",
                "/api/v1/orgs/{org}/issues",
                env + "/issues",
                env + "/deployments",
                env + "/state/thing/default/app.a/versions",
                "/api/v1/orgs/{org}/webhooks/" + webhook + "/deliveries",
                "/api/v1/tokens");
        List<String> wrong = new ArrayList<>();
        for (String time : List.of(
                "+1000000000-01-01T00:00:00Z",
                "+300000-01-01T00:00:00Z",
                "-5000-01-01T00:00:00Z",
                "0000-12-31T23:59:59Z")) {
            String token = PageRequest.tokenFor(time + "|" + UUID.randomUUID());
            for (String list : lists) {
                Response answer = admin().queryParam("page_token", token).get(list.replace("{org}", s.org));
                String body = answer.asString();
                if (answer.statusCode() != 400 || !body.contains("\"pointer\":\"page_token\"")) {
                    wrong.add(list + " with a token of " + time + ": " + answer.statusCode() + " " + body);
                }
            }
        }
        assertThat(wrong)
                .as("lists that did not refuse the token as the caller's mistake")
                .isEmpty();
    }
}
