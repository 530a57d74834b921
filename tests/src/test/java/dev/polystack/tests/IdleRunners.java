package dev.polystack.tests;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Thousands of idle runners, each waiting in a claim again as soon as the last one answered, in a process of its
 * own: run in the harness's JVM, their client's garbage paused that JVM for 40-160 ms every two seconds, and a
 * probe runner in the same JVM took those pauses into its pickup figure. Real runners are other processes on
 * other machines.
 *
 * <p>Arguments: the control plane's URL and a file with one runner per line ({@code id base64-PKCS#8-key}). It
 * prints {@code polling} once every runner sent its first claim, then every second {@code answered N errors M
 * [reasons]}, and ends when its standard input closes.
 *
 * <p>Its claims go over Vert.x's HTTP client, HTTP/2 streams on a few connections, from one event loop: the JDK's
 * client, which it used before 4 December ({@code -Dbench.idleClient=jdk}), took 0.8-1.0 of the machine's two cores
 * for 5,000 runners, which the control plane then did not have.
 */
public final class IdleRunners {

    private final String base;
    private final HttpClient http;
    private final io.vertx.core.http.HttpClient vertxHttp;
    private final AtomicBoolean polling = new AtomicBoolean(true);
    private final AtomicInteger answered = new AtomicInteger();
    private final AtomicInteger errors = new AtomicInteger();
    private final Map<String, Integer> reasons = new ConcurrentHashMap<>();
    private final Map<String, String> tokens = new ConcurrentHashMap<>();
    private final Map<String, PrivateKey> keys = new ConcurrentHashMap<>();

    private IdleRunners(String base, String client) {
        this.base = base;
        if (client.equals("jdk")) {
            this.http = HttpClient.newBuilder()
                    .executor(Executors.newFixedThreadPool(4))
                    .connectTimeout(Duration.ofSeconds(10))
                    .build();
            this.vertxHttp = null;
        } else {
            URI uri = URI.create(base);
            this.http = null;
            // HTTP/2 without an upgrade (the control plane serves it in clear text), 100 waiting claims per connection
            this.vertxHttp = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1))
                    .createHttpClient(
                            new HttpClientOptions()
                                    .setDefaultHost(uri.getHost())
                                    .setDefaultPort(uri.getPort())
                                    .setProtocolVersion(HttpVersion.HTTP_2)
                                    .setHttp2ClearTextUpgrade(false)
                                    .setHttp2MultiplexingLimit(100)
                                    .setConnectTimeout(10_000),
                            new PoolOptions().setHttp2MaxSize(200).setMaxWaitQueueSize(-1));
        }
    }

    public static void main(String[] args) throws Exception {
        IdleRunners runners = new IdleRunners(args[0], System.getProperty("bench.idleClient", "vertx"));
        List<String> ids = new ArrayList<>();
        KeyFactory factory = KeyFactory.getInstance("Ed25519");
        for (String line : Files.readAllLines(Path.of(args[1]))) {
            String[] parts = line.split(" ");
            runners.keys.put(
                    parts[0],
                    factory.generatePrivate(
                            new PKCS8EncodedKeySpec(Base64.getDecoder().decode(parts[1]))));
            ids.add(parts[0]);
        }
        for (String id : ids) {
            runners.tokens.put(id, jwt(id, runners.keys.get(id)));
            runners.poll(id);
        }
        System.out.println("polling");
        var reports = Executors.newSingleThreadScheduledExecutor();
        reports.scheduleAtFixedRate(
                () -> System.out.println("answered " + runners.answered.get() + " errors " + runners.errors.get() + " "
                        + runners.reasons),
                1,
                1,
                TimeUnit.SECONDS);
        // the harness closes standard input to stop it
        try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            while (in.readLine() != null) {
                // nothing is sent; reading waits for the end
            }
        }
        runners.polling.set(false);
        reports.shutdownNow();
        System.exit(0);
    }

    private void poll(String id) {
        if (!polling.get()) {
            return;
        }
        if (vertxHttp != null) {
            vertxHttp
                    .request(new RequestOptions()
                            .setMethod(HttpMethod.POST)
                            .setURI("/api/runner/v1/claim?wait=25000ms")
                            .setIdleTimeout(45_000)
                            .putHeader("Authorization", "Bearer " + tokens.get(id)))
                    .compose(request -> request.send())
                    .compose(response -> response.body().map(ignored -> response.statusCode()))
                    .onComplete(outcome -> answered(id, outcome.succeeded() ? outcome.result() : 0, outcome.cause()));
            return;
        }
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/api/runner/v1/claim?wait=25000ms"))
                .timeout(Duration.ofSeconds(45))
                .header("Authorization", "Bearer " + tokens.get(id))
                .POST(HttpRequest.BodyPublishers.noBody())
                .build();
        http.sendAsync(request, HttpResponse.BodyHandlers.discarding())
                .whenComplete(
                        (response, failure) -> answered(id, response == null ? 0 : response.statusCode(), failure));
    }

    /** Counts a claim's answer (a status, or a failure) and sends the runner's next claim. */
    private void answered(String id, int status, Throwable failure) {
        if (failure != null || status >= 400) {
            errors.incrementAndGet();
            reasons.merge(
                    failure != null
                            ? failure.getClass().getSimpleName() + ": " + failure.getMessage()
                            : "HTTP " + status,
                    1,
                    Integer::sum);
            if (status == 401) {
                // an expired token: a new one, as an agent makes
                tokens.put(id, jwt(id, keys.get(id)));
            }
        } else {
            answered.incrementAndGet();
        }
        poll(id);
    }

    static String jwt(String runner, PrivateKey key) {
        try {
            JwtClaims claims = new JwtClaims();
            claims.setSubject(runner);
            claims.setClaim("org", "acme");
            claims.setAudience("polystack");
            long now = System.currentTimeMillis() / 1000;
            claims.setIssuedAt(NumericDate.fromSeconds(now));
            claims.setExpirationTime(NumericDate.fromSeconds(now + 240));
            claims.setGeneratedJwtId();
            JsonWebSignature jws = new JsonWebSignature();
            jws.setPayload(claims.toJson());
            jws.setKey(key);
            jws.setAlgorithmHeaderValue(AlgorithmIdentifiers.EDDSA);
            return jws.getCompactSerialization();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The file {@link #main} reads: one runner per line, its id and its private key. */
    static void writeKeys(Path file, Map<String, PrivateKey> runners) throws IOException {
        StringBuilder lines = new StringBuilder();
        runners.forEach((id, key) -> lines.append(id)
                .append(' ')
                .append(Base64.getEncoder().encodeToString(key.getEncoded()))
                .append('\n'));
        Files.writeString(file, lines);
    }
}
