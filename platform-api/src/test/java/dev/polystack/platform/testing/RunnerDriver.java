package dev.polystack.platform.testing;

import dev.polystack.platform.runner.RunnerKeys;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;
import org.jose4j.lang.JoseException;

import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.restassured.RestAssured.given;

/**
 * Drives the runner protocol by hand, as an agent would: registers a runner with a fresh Ed25519 key,
 * signs its JWTs, claims jobs, sends heartbeats, logs and results.
 */
public final class RunnerDriver {

    private final String org;
    private final String id;
    private final KeyPair keys;

    private RunnerDriver(String org, String id, KeyPair keys) {
        this.org = org;
        this.id = id;
        this.keys = keys;
    }

    public static KeyPair newKeys() {
        try {
            return KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Registers a runner in the organization and a runner rule without criteria for it. */
    public static RunnerDriver register(String org, String id, int maxConcurrentJobs) {
        KeyPair keys = newKeys();
        Api.admin()
                .body(Map.of(
                        "id",
                        id,
                        "public_key",
                        RunnerKeys.toPem(keys.getPublic()),
                        "max_concurrent_jobs",
                        maxConcurrentJobs))
                .post("/api/v1/orgs/{org}/runners", org)
                .then()
                .statusCode(201);
        return new RunnerDriver(org, id, keys);
    }

    public String id() {
        return id;
    }

    /** A JWT with the given lifetime, issued {@code issuedAgoSeconds} ago (negative: in the future). */
    public String jwt(long issuedAgoSeconds, long lifetimeSeconds, String audience, PrivateKey key, String subject) {
        try {
            JwtClaims claims = new JwtClaims();
            long now = System.currentTimeMillis() / 1000;
            claims.setSubject(subject);
            claims.setClaim("org", org);
            claims.setAudience(audience);
            claims.setIssuedAt(NumericDate.fromSeconds(now - issuedAgoSeconds));
            claims.setExpirationTime(NumericDate.fromSeconds(now - issuedAgoSeconds + lifetimeSeconds));
            claims.setGeneratedJwtId();
            JsonWebSignature jws = new JsonWebSignature();
            jws.setPayload(claims.toJson());
            jws.setKey(key);
            jws.setAlgorithmHeaderValue("EdDSA");
            return jws.getCompactSerialization();
        } catch (JoseException e) {
            throw new IllegalStateException(e);
        }
    }

    public String jwt() {
        return jwt(0, 120, "polystack", keys.getPrivate(), id);
    }

    public PrivateKey privateKey() {
        return keys.getPrivate();
    }

    public RequestSpecification request() {
        return given().auth().oauth2(jwt()).contentType(ContentType.JSON).accept(ContentType.JSON);
    }

    /** Claims a job, waiting at most {@code wait}; null when none came. */
    public Map<String, Object> claim(String wait) {
        Response response = request().queryParam("wait", wait).post("/api/runner/v1/claim");
        if (response.statusCode() == 204) {
            return null;
        }
        response.then().statusCode(200);
        return response.jsonPath().getMap("");
    }

    public Map<String, Object> claim() {
        return claim("2s");
    }

    /** Sends {@code claims} claims at once, spread over the runners in turn; how many got a job. */
    public static int race(int claims, RunnerDriver... runners) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(claims);
        try {
            List<Future<Map<String, Object>>> racing = new ArrayList<>();
            for (int i = 0; i < claims; i++) {
                RunnerDriver runner = runners[i % runners.length];
                racing.add(pool.submit(() -> runner.claim("0s")));
            }
            int won = 0;
            for (Future<Map<String, Object>> claim : racing) {
                won += claim.get(30, TimeUnit.SECONDS) == null ? 0 : 1;
            }
            return won;
        } finally {
            pool.shutdownNow();
        }
    }

    public Response heartbeat(Object jobId) {
        return request().post("/api/runner/v1/jobs/{id}/heartbeat", jobId);
    }

    public void log(Object jobId, int batch, String... messages) {
        List<Map<String, Object>> lines = Arrays.stream(messages)
                .map(m -> Map.<String, Object>of("level", "info", "message", m))
                .toList();
        request()
                .body(Map.of("batch", batch, "lines", lines))
                .post("/api/runner/v1/jobs/{id}/logs", jobId)
                .then()
                .statusCode(204);
    }

    /** Reports a result and waits for the deployment's advance, so that a claim right after finds what depends on the job. */
    public Response result(Object jobId, Map<String, Object> body) {
        return request().queryParam("wait_for_advance", true).body(body).post("/api/runner/v1/jobs/{id}/result", jobId);
    }

    /** Reports success with the given output values (none sensitive). */
    public void succeed(Map<String, Object> job, Map<String, Object> outputs) {
        succeed(job, outputs, Map.of(), "terraform_data.this");
    }

    /**
     * Reports success with output values, some of them sensitive, and one OpenTofu resource at {@code address}
     * ({@code terraform_data.<name>}).
     */
    public void succeed(
            Map<String, Object> job, Map<String, Object> outputs, Map<String, Object> sensitive, String address) {
        Map<String, Object> wrapped = new HashMap<>();
        outputs.forEach((name, value) -> wrapped.put(name, Map.of("value", value, "sensitive", false)));
        sensitive.forEach((name, value) -> wrapped.put(name, Map.of("value", value, "sensitive", true)));
        result(
                        job.get("job_id"),
                        Map.of(
                                "status",
                                "succeeded",
                                "outputs",
                                wrapped,
                                "resources",
                                List.of(Map.of(
                                        "address",
                                        address,
                                        "mode",
                                        "managed",
                                        "type",
                                        "terraform_data",
                                        "name",
                                        address.substring(address.indexOf('.') + 1))),
                                "plan_summary",
                                Map.of("add", 1, "change", 0, "destroy", 0)))
                .then()
                .statusCode(204);
    }

    public void fail(Map<String, Object> job, String summary) {
        result(
                        job.get("job_id"),
                        Map.of("status", "failed", "error", Map.of("summary", summary, "detail", "exit code 1")))
                .then()
                .statusCode(204);
    }

    /** The resource id ({@code type/class/id}) a claimed job works on. */
    @SuppressWarnings("unchecked")
    public static String resourceOf(Map<String, Object> job) {
        Map<String, Object> resource = (Map<String, Object>) job.get("resource");
        return resource.get("id").toString();
    }
}
