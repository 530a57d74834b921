package dev.polystack.platform.security;

import dev.polystack.platform.testing.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static dev.polystack.platform.testing.Api.as;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

@QuarkusTest
@TestProfile(AuthThrottleTest.FewFailures.class)
@QuarkusTestResource(PostgresResource.class)
class AuthThrottleTest {

    public static class FewFailures implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("polystack.auth.max-failures", "5");
        }
    }

    @Test
    void repeatedAuthenticationFailuresAreThrottled() {
        for (int i = 0; i < 5; i++) {
            as("pst_guess-" + i).get("/api/v1/me").then().statusCode(401);
        }
        as("pst_guess-6").get("/api/v1/me").then().statusCode(401);
        given().get("/api/v1/me").then().statusCode(429)
                .contentType("application/problem+json")
                .header("Retry-After", notNullValue())
                .body("type", equalTo("https://polystack.dev/problems/too-many-requests"));
        as(PostgresResource.ADMIN_TOKEN).get("/api/v1/me").then().statusCode(429);
    }
}
