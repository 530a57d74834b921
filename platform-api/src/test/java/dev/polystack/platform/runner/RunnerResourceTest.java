package dev.polystack.platform.runner;

import dev.polystack.platform.testing.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.security.KeyPairGenerator;
import java.util.Map;

import static dev.polystack.platform.testing.Api.admin;
import static dev.polystack.platform.testing.Api.as;
import static dev.polystack.platform.testing.Api.createOrg;
import static dev.polystack.platform.testing.Api.problem;
import static dev.polystack.platform.testing.Api.tokenFor;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

@QuarkusTest
@QuarkusTestResource(PostgresResource.class)
class RunnerResourceTest {

    static String publicKey(String algorithm) throws Exception {
        return RunnerKeys.toPem(
                KeyPairGenerator.getInstance(algorithm).generateKeyPair().getPublic());
    }

    @Test
    void registersARunnerWithItsEd25519Key() throws Exception {
        String org = createOrg();
        String key = publicKey("Ed25519");
        as(tokenFor(org, "platform-engineer"))
                .body(Map.of(
                        "id",
                        "eu-agent",
                        "public_key",
                        key,
                        "max_concurrent_jobs",
                        4,
                        "labels",
                        Map.of("region", "eu")))
                .post("/api/v1/orgs/{org}/runners", org)
                .then()
                .statusCode(201)
                .body("public_key", equalTo(key))
                .body("labels.region", equalTo("eu"))
                .body("max_concurrent_jobs", equalTo(4))
                .body("status", equalTo("offline"));
    }

    @Test
    void rejectsKeysThatAreNotEd25519Pem() throws Exception {
        String org = createOrg();
        problem(
                        admin().body(Map.of("id", "r", "public_key", "ssh-ed25519 AAAA"))
                                .post("/api/v1/orgs/{org}/runners", org),
                        400,
                        "validation")
                .body("errors[0].pointer", equalTo("/public_key"));
        String rsa = RunnerKeys.toPem(
                KeyPairGenerator.getInstance("RSA").generateKeyPair().getPublic());
        problem(
                        admin().body(Map.of("id", "r", "public_key", rsa)).post("/api/v1/orgs/{org}/runners", org),
                        400,
                        "validation")
                .body("detail", startsWith("/public_key: must be an Ed25519 public key"));
        problem(
                admin().body(Map.of(
                                "id", "r", "public_key", "-----BEGIN PUBLIC KEY-----\n!!!\n-----END PUBLIC KEY-----"))
                        .post("/api/v1/orgs/{org}/runners", org),
                400,
                "validation");
    }

    @Test
    void validatesCapacity() throws Exception {
        String org = createOrg();
        problem(
                        admin().body(Map.of("id", "r", "public_key", publicKey("Ed25519"), "max_concurrent_jobs", 0))
                                .post("/api/v1/orgs/{org}/runners", org),
                        400,
                        "validation")
                .body("errors[0].pointer", equalTo("/max_concurrent_jobs"));
    }

    @Test
    void rotatesTheKeyWithOptimisticLocking() throws Exception {
        String org = createOrg();
        admin().body(Map.of("id", "r", "public_key", publicKey("Ed25519")))
                .post("/api/v1/orgs/{org}/runners", org)
                .then()
                .statusCode(201);
        String rotated = publicKey("Ed25519");
        admin().header("If-Match", "\"0\"")
                .body(Map.of("public_key", rotated, "max_concurrent_jobs", 2))
                .put("/api/v1/orgs/{org}/runners/r", org)
                .then()
                .statusCode(200)
                .body("public_key", equalTo(rotated));
        problem(
                admin().header("If-Match", "\"0\"")
                        .body(Map.of("public_key", rotated))
                        .put("/api/v1/orgs/{org}/runners/r", org),
                409,
                "stale-version");
    }

    @Test
    void aRunnerThatRulesUseCannotBeDeleted() throws Exception {
        String org = createOrg();
        admin().body(Map.of("id", "r", "public_key", publicKey("Ed25519")))
                .post("/api/v1/orgs/{org}/runners", org)
                .then()
                .statusCode(201);
        String rule = admin().body(Map.of("runner_id", "r"))
                .post("/api/v1/orgs/{org}/runner-rules", org)
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        problem(admin().delete("/api/v1/orgs/{org}/runners/r", org), 409, "in-use")
                .body("detail", equalTo("runner `r` is still used by runner rules " + rule));
    }

    @Test
    void rolesDuplicatesAndTenants() throws Exception {
        String org = createOrg();
        admin().body(Map.of("id", "r", "public_key", publicKey("Ed25519")))
                .post("/api/v1/orgs/{org}/runners", org)
                .then()
                .statusCode(201);
        problem(
                admin().body(Map.of("id", "r", "public_key", publicKey("Ed25519")))
                        .post("/api/v1/orgs/{org}/runners", org),
                409,
                "conflict");
        problem(
                as(tokenFor(org, "developer"))
                        .body(Map.of("id", "s", "public_key", publicKey("Ed25519")))
                        .post("/api/v1/orgs/{org}/runners", org),
                403,
                "forbidden");
        as(tokenFor(org, "viewer"))
                .get("/api/v1/orgs/{org}/runners/r", org)
                .then()
                .statusCode(200);
        problem(as(tokenFor(createOrg(), "owner")).get("/api/v1/orgs/{org}/runners/r", org), 404, "not-found");
        admin().delete("/api/v1/orgs/{org}/runners/r", org).then().statusCode(204);
    }
}
