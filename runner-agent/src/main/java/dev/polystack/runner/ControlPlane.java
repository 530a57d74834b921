package dev.polystack.runner;

import com.fasterxml.jackson.databind.DeserializationFeature;
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
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
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
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
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

    /** Checks that the control plane answers, for a clear error at start-up. */
    public void checkReachable() throws IOException {
        HttpRequest request = HttpRequest.newBuilder(base.resolve("/q/health/live")).timeout(Duration.ofSeconds(10)).GET().build();
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
        HttpResponse<String> response = send("/api/runner/v1/claim?wait=" + wait.toMillis() + "ms", null, wait.plusSeconds(20));
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

    public void logs(UUID job, LogBatch batch) throws IOException {
        expect(send("/api/runner/v1/jobs/" + job + "/logs", JSON.writeValueAsString(batch), Duration.ofSeconds(30)), 204);
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
        HttpResponse<String> response = send("/api/runner/v1/jobs/" + job + "/result" + (next ? "?next=true" : ""),
                JSON.writeValueAsString(result), Duration.ofSeconds(60));
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
        HttpRequest.Builder builder = HttpRequest.newBuilder(base.resolve(path)).timeout(timeout)
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

    private static void expect(HttpResponse<String> response, int status) throws IOException {
        if (response.statusCode() != status) {
            throw new IOException(response.request().method() + " " + response.request().uri().getPath() + " answered "
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

    private static String abbreviate(String body) {
        return body == null ? "" : body.length() > 500 ? body.substring(0, 500) + "…" : body;
    }

    static Logger log() {
        return LOG;
    }
}
