package dev.polystack.platform.security;

import dev.polystack.platform.testing.Api;
import dev.polystack.platform.testing.PostgresResource;
import dev.polystack.platform.testing.RunnerDriver;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static dev.polystack.platform.testing.Api.as;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

/**
 * Failed authentications slow down the client that fails, and the credential that fails, never anyone
 * else. The test talks through a "proxy" (this machine, trusted), so that each test can be a client
 * address of its own via X-Forwarded-For.
 */
@QuarkusTest
@TestProfile(AuthThrottleTest.FewFailuresBehindAProxy.class)
@QuarkusTestResource(PostgresResource.class)
class AuthThrottleTest {

    public static class FewFailuresBehindAProxy implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "polystack.auth.max-failures",
                    "5",
                    "quarkus.http.proxy.proxy-address-forwarding",
                    "true",
                    "quarkus.http.proxy.allow-x-forwarded",
                    "true",
                    "quarkus.http.proxy.trusted-proxies",
                    "127.0.0.1,::1");
        }
    }

    private static RequestSpecification from(String address) {
        return given().header("X-Forwarded-For", address);
    }

    /** Five failures are answered 401; the sixth, over the limit, already 429. */
    private static void failSixTimes(String address) {
        for (int i = 0; i < 5; i++) {
            from(address)
                    .auth()
                    .oauth2("pst_guess-" + address + "-" + i)
                    .get("/api/v1/me")
                    .then()
                    .statusCode(401);
        }
        from(address)
                .auth()
                .oauth2("pst_guess-" + address + "-5")
                .get("/api/v1/me")
                .then()
                .statusCode(429);
    }

    @Test
    void aClientThatKeepsFailingIsThrottled() {
        failSixTimes("203.0.113.7");
        from("203.0.113.7")
                .get("/api/v1/me")
                .then()
                .statusCode(429)
                .contentType("application/problem+json")
                .header("Retry-After", notNullValue())
                .body("type", equalTo("https://polystack.dev/problems/too-many-requests"));
        // its next guesses are answered 429 as well, not 401
        from("203.0.113.7")
                .auth()
                .oauth2("pst_guess-again")
                .get("/api/v1/me")
                .then()
                .statusCode(429);
        // another client is not
        from("198.51.100.9").get("/api/v1/me").then().statusCode(401);
    }

    @Test
    void validCredentialsHealthAndRunnersBehindTheSameAddressAreNotThrottled() {
        String org = Api.createOrg();
        String token = Api.tokenFor(org, "viewer");
        RunnerDriver runner = RunnerDriver.register(org, "r1", 1);
        failSixTimes("192.0.2.44");
        from("192.0.2.44").get("/api/v1/me").then().statusCode(429);

        from("192.0.2.44")
                .auth()
                .oauth2(PostgresResource.ADMIN_TOKEN)
                .get("/api/v1/me")
                .then()
                .statusCode(200);
        from("192.0.2.44")
                .auth()
                .oauth2(token)
                .get("/api/v1/orgs/{org}/projects", org)
                .then()
                .statusCode(200);
        from("192.0.2.44").get("/q/health/ready").then().statusCode(200);
        from("192.0.2.44")
                .auth()
                .oauth2(runner.jwt())
                .queryParam("wait", "0s")
                .post("/api/runner/v1/claim")
                .then()
                .statusCode(204);
        // the whole proxy (every client without a forwarded address) is not blocked either
        as(PostgresResource.ADMIN_TOKEN).get("/api/v1/me").then().statusCode(200);
    }

    @Test
    void theSameFailingCredentialIsThrottledFromAnyAddress() {
        for (int i = 0; i < 5; i++) {
            from("198.18.0." + i)
                    .auth()
                    .oauth2("pst_revoked-but-still-in-a-ci-job")
                    .get("/api/v1/me")
                    .then()
                    .statusCode(401);
        }
        from("198.18.0.99")
                .auth()
                .oauth2("pst_revoked-but-still-in-a-ci-job")
                .get("/api/v1/me")
                .then()
                .statusCode(429)
                .body("detail", containsString("credential"));
        from("198.18.0.99").get("/api/v1/me").then().statusCode(401);
    }
}
