package dev.polystack.runner;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.polystack.runner.protocol.ClaimedJob;
import dev.polystack.runner.protocol.HeartbeatReply;
import dev.polystack.runner.protocol.JobResult;
import dev.polystack.runner.protocol.LogBatch;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;
import org.jose4j.lang.JoseException;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.PrivateKey;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.logging.Logger;

/**
 * The control plane as the agent sees it: outbound HTTPS calls only, each carrying a short-lived JWT
 * signed with the runner's Ed25519 key.
 */
public class ControlPlane {

    private static final Logger LOG = Logger.getLogger(ControlPlane.class.getName());
    static final ObjectMapper JSON = new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            // an operation of a newer control plane reads as UNKNOWN: the job fails saying so, the claim does not
            .enable(DeserializationFeature.READ_UNKNOWN_ENUM_VALUES_USING_DEFAULT_VALUE);
    private static final long TOKEN_SECONDS = 120;

    private final URI base;
    private final String org;
    private final String runner;
    private final String audience;
    private final PrivateKey key;
    private final HttpClient http;
    private volatile String token;
    private volatile long tokenRenewAt;

    public ControlPlane(URI base, String org, String runner, String audience, PrivateKey key) {
        this.base = base;
        this.org = org;
        this.runner = runner;
        this.audience = audience;
        this.key = key;
        this.http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    }

    /** The credentials were refused: the runner is not registered, or with another key. */
    public static final class RejectedException extends IOException {
        public RejectedException(String message) {
            super(message);
        }
    }

    /** The job is no longer this runner's (its lease expired or it ended). */
    public static final class LeaseLostException extends IOException {
        public LeaseLostException(String message) {
            super(message);
        }
    }

    /**
     * The control plane refused a request for what it carried (a 4xx other than 401, 404 and 409): sending
     * it again would be refused again. {@link #detail()} is the problem's own explanation.
     */
    public static final class RefusedException extends IOException {
        private final int status;
        private final String detail;

        public RefusedException(String message, int status, String detail) {
            super(message);
            this.status = status;
            this.detail = detail;
        }

        public int status() {
            return status;
        }

        public String detail() {
            return detail;
        }
    }

    /** Checks that the control plane answers, for a clear error at start-up. */
    public void checkReachable() throws IOException {
        HttpRequest request = HttpRequest.newBuilder(base.resolve("/q/health/live"))
                .timeout(Duration.ofSeconds(10))
                .GET()
                .build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() >= 500) {
                throw new IOException("the control plane at " + base + " answers " + response.statusCode());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        } catch (IOException e) {
            throw new IOException("cannot reach the control plane at " + base + ": " + describe(e), e);
        }
    }

    public Optional<ClaimedJob> claim(Duration wait) throws IOException {
        HttpResponse<String> response =
                send("/api/runner/v1/claim?wait=" + wait.toMillis() + "ms", null, wait.plusSeconds(20));
        if (response.statusCode() == 204) {
            return Optional.empty();
        }
        expect(response, 200);
        return Optional.of(JSON.readValue(response.body(), ClaimedJob.class));
    }

    public HeartbeatReply heartbeat(UUID job) throws IOException {
        HttpResponse<String> response = send("/api/runner/v1/jobs/" + job + "/heartbeat", null, Duration.ofSeconds(20));
        if (response.statusCode() == 409 || response.statusCode() == 404) {
            throw new LeaseLostException("job " + job + " is no longer this runner's: " + response.body());
        }
        expect(response, 200);
        return JSON.readValue(response.body(), HeartbeatReply.class);
    }

    /** Sends a batch of log lines, cut to the control plane's limits; a 404 or 409 (the job ended) is {@link LeaseLostException}. */
    public void logs(UUID job, LogBatch batch) throws IOException {
        HttpResponse<String> response = send(
                "/api/runner/v1/jobs/" + job + "/logs",
                JSON.writeValueAsString(batch.withinLimits()),
                Duration.ofSeconds(30));
        if (response.statusCode() == 409 || response.statusCode() == 404) {
            throw new LeaseLostException("the control plane refused log batch " + batch.batch() + " of job " + job
                    + ": " + abbreviate(response.body()));
        }
        expect(response, 204);
    }

    /** Sends a result; a 409 (the lease was lost meanwhile) is reported as {@link LeaseLostException}. */
    public void result(UUID job, JobResult result) throws IOException {
        resultAndNext(job, result, false);
    }

    /**
     * Sends a result; with {@code next}, the control plane answers with the runner's next queued job, claimed
     * for the slot that reported (one request instead of a result and a claim). A 409 (the lease was lost
     * meanwhile) is reported as {@link LeaseLostException}.
     */
    public Optional<ClaimedJob> resultAndNext(UUID job, JobResult result, boolean next) throws IOException {
        HttpResponse<String> response = send(
                "/api/runner/v1/jobs/" + job + "/result" + (next ? "?next=true" : ""),
                JSON.writeValueAsString(result.withinLimits()),
                Duration.ofSeconds(60));
        if (response.statusCode() == 409) {
            throw new LeaseLostException("the control plane refused the result of job " + job + ": " + response.body());
        }
        if (next && response.statusCode() == 200) {
            return Optional.of(JSON.readValue(response.body(), ClaimedJob.class));
        }
        expect(response, 204);
        return Optional.empty();
    }

    private HttpResponse<String> send(String path, String body, Duration timeout) throws IOException {
        HttpRequest.Builder builder = HttpRequest.newBuilder(base.resolve(path))
                .timeout(timeout)
                .header("Authorization", "Bearer " + token())
                .header("Accept", "application/json");
        if (body == null) {
            builder.POST(HttpRequest.BodyPublishers.noBody());
        } else {
            builder.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
        }
        try {
            HttpResponse<String> response = http.send(builder.build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() == 401) {
                throw new RejectedException("the control plane rejected runner `" + runner + "` of organization `" + org
                        + "`: is it registered with this key's public key, and is the clock right?");
            }
            return response;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    /**
     * Fails unless the answer has {@code status}: a 4xx (other than 401, 404 and 409, which callers read
     * first) as {@link RefusedException}, anything else as a plain {@link IOException} that may be retried.
     */
    private static void expect(HttpResponse<String> response, int status) throws IOException {
        int answered = response.statusCode();
        if (answered >= 400 && answered < 500 && answered != 408 && answered != 429) {
            String detail = problemDetail(response.body());
            throw new RefusedException(
                    response.request().method() + " " + response.request().uri().getPath() + " was refused (" + answered
                            + "): " + detail,
                    answered,
                    detail);
        }
        if (answered != status) {
            throw new IOException(
                    response.request().method() + " " + response.request().uri().getPath() + " answered "
                            + response.statusCode() + ": " + abbreviate(response.body()));
        }
    }

    private String token() {
        long now = System.currentTimeMillis() / 1000;
        if (token == null || now >= tokenRenewAt) {
            try {
                JwtClaims claims = new JwtClaims();
                claims.setSubject(runner);
                claims.setClaim("org", org);
                claims.setAudience(audience);
                claims.setIssuedAt(NumericDate.fromSeconds(now));
                claims.setExpirationTime(NumericDate.fromSeconds(now + TOKEN_SECONDS));
                claims.setGeneratedJwtId();
                JsonWebSignature jws = new JsonWebSignature();
                jws.setPayload(claims.toJson());
                jws.setKey(key);
                jws.setAlgorithmHeaderValue("EdDSA");
                token = jws.getCompactSerialization();
                tokenRenewAt = now + TOKEN_SECONDS / 2;
            } catch (JoseException e) {
                throw new IllegalStateException("cannot sign a token with the runner key", e);
            }
        }
        return token;
    }

    static String describe(Throwable e) {
        Throwable cause = e;
        while (cause.getCause() != null && cause.getMessage() == null) {
            cause = cause.getCause();
        }
        return cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
    }

    /** What a problem+json answer says was wrong (its detail, else its title), else the body itself, shortened. */
    static String problemDetail(String body) {
        try {
            JsonNode problem = JSON.readTree(body == null ? "" : body);
            if (problem != null && problem.isObject()) {
                String text = problem.path("detail").isTextual()
                        ? problem.path("detail").asText()
                        : problem.path("title").asText("");
                if (!text.isBlank()) {
                    return abbreviate(text);
                }
            }
        } catch (IOException e) {
            // not JSON: the body as it is
        }
        return abbreviate(body);
    }

    private static String abbreviate(String body) {
        return body == null ? "" : body.length() > 500 ? body.substring(0, 500) + "…" : body;
    }

    static Logger log() {
        return LOG;
    }
}
