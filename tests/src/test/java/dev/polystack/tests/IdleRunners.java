package dev.polystack.tests;

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
 */
public final class IdleRunners {

    private final String base;
    private final HttpClient http;
    private final AtomicBoolean polling = new AtomicBoolean(true);
    private final AtomicInteger answered = new AtomicInteger();
    private final AtomicInteger errors = new AtomicInteger();
    private final Map<String, Integer> reasons = new ConcurrentHashMap<>();
    private final Map<String, String> tokens = new ConcurrentHashMap<>();
    private final Map<String, PrivateKey> keys = new ConcurrentHashMap<>();

    private IdleRunners(String base) {
        this.base = base;
        this.http = HttpClient.newBuilder()
                .executor(Executors.newFixedThreadPool(4))
                .connectTimeout(Duration.ofSeconds(10))
                .build();
    }

    public static void main(String[] args) throws Exception {
        IdleRunners runners = new IdleRunners(args[0]);
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
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/api/runner/v1/claim?wait=25000ms"))
                .timeout(Duration.ofSeconds(45))
                .header("Authorization", "Bearer " + tokens.get(id))
                .POST(HttpRequest.BodyPublishers.noBody())
                .build();
        http.sendAsync(request, HttpResponse.BodyHandlers.discarding()).whenComplete((response, failure) -> {
            if (failure != null || response.statusCode() >= 400) {
                errors.incrementAndGet();
                reasons.merge(
                        failure != null
                                ? failure.getClass().getSimpleName() + ": " + failure.getMessage()
                                : "HTTP " + response.statusCode(),
                        1,
                        Integer::sum);
                if (response != null && response.statusCode() == 401) {
                    // an expired token: a new one, as an agent makes
                    tokens.put(id, jwt(id, keys.get(id)));
                }
            } else {
                answered.incrementAndGet();
            }
            poll(id);
        });
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
