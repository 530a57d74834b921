package dev.polystack.cli;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Signs a person in with the identity provider Polystack trusts, by the OAuth 2.0 device authorization
 * grant (RFC 8628): the person opens a link in any browser and confirms a code, while the command waits.
 * The access token is short-lived; the refresh token renews it before it expires.
 */
final class DeviceSignIn {

    /** What renews a sign-in: where, as which client, with which refresh token, and when the access token ends. */
    record Session(String tokenEndpoint, String clientId, String refreshToken, Instant expiresAt) {}

    /** A signed-in person's access token and what renews it. */
    record Tokens(String accessToken, Session session) {}

    /** How long before its end an access token is renewed. */
    static final Duration RENEW_BEFORE = Duration.ofSeconds(30);

    private static final String DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";

    private final HttpClient http = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(10))
            .followRedirects(HttpClient.Redirect.NORMAL)
            .build();
    private final Clock clock;

    DeviceSignIn(Clock clock) {
        this.clock = clock;
    }

    /**
     * Signs in through Polystack's identity provider: asks the provider for a code, tells the person where
     * to confirm it, and polls until they have (or refused, or the code expired).
     */
    Tokens signIn(String polystackUrl, PrintWriter tell, Duration timeout) {
        JsonNode oidc =
                new Client(polystackUrl, null).get("/api/v1/auth/config").path("oidc");
        if (!oidc.isObject()) {
            throw CliException.badInput(polystackUrl + " accepts API tokens only: sign in with --token-stdin");
        }
        String clientId = oidc.path("cli_client_id").asText(null);
        String issuer = oidc.path("issuer").asText();
        JsonNode discovery = get(issuer.replaceAll("/$", "") + "/.well-known/openid-configuration");
        String deviceEndpoint = discovery.path("device_authorization_endpoint").asText(null);
        String tokenEndpoint = discovery.path("token_endpoint").asText(null);
        if (clientId == null || deviceEndpoint == null || tokenEndpoint == null) {
            throw CliException.badInput(
                    "the identity provider " + issuer + " offers no device sign-in: sign in with --token-stdin");
        }
        Form device = post(deviceEndpoint, Map.of("client_id", clientId, "scope", "openid"));
        if (device.status() != 200) {
            throw CliException.badInput(
                    "the identity provider refused device sign-in for client `" + clientId + "`: " + device.error()
                            + " (its administrator must turn on the device authorization grant for that client)");
        }
        JsonNode code = device.body();
        String link = code.path("verification_uri_complete")
                .asText(code.path("verification_uri").asText());
        tell.println("To sign in, open " + link);
        tell.println(
                "and check that it shows the code " + code.path("user_code").asText() + ". Waiting...");
        tell.flush();
        Duration interval = Duration.ofSeconds(Math.max(1, code.path("interval").asInt(5)));
        Instant codeEnds = clock.instant().plusSeconds(code.path("expires_in").asLong(600));
        Instant deadline = codeEnds.isBefore(clock.instant().plus(timeout))
                ? codeEnds
                : clock.instant().plus(timeout);
        while (clock.instant().isBefore(deadline)) {
            sleep(interval);
            Form answer = post(
                    tokenEndpoint,
                    Map.of(
                            "grant_type",
                            DEVICE_GRANT,
                            "device_code",
                            code.path("device_code").asText(),
                            "client_id",
                            clientId));
            if (answer.status() == 200) {
                return tokens(answer.body(), tokenEndpoint, clientId, null);
            }
            switch (answer.body().path("error").asText("")) {
                case "authorization_pending" -> {}
                case "slow_down" -> interval = interval.plusSeconds(5);
                case "access_denied" -> throw CliException.badInput("the sign-in was refused in the browser");
                case "expired_token" ->
                    throw new CliException(
                            ExitCodes.CANCELLED_OR_TIMED_OUT,
                            "the code expired before it was confirmed; run login again");
                default ->
                    throw new CliException(
                            ExitCodes.FAILED,
                            "the identity provider answered " + answer.status() + ": " + answer.error());
            }
        }
        throw new CliException(ExitCodes.CANCELLED_OR_TIMED_OUT, "the code was not confirmed in time; run login again");
    }

    /** A fresh access token for a session, or a clear message when the session has ended. */
    Tokens renew(Session session) {
        Form answer = post(
                session.tokenEndpoint(),
                Map.of(
                        "grant_type",
                        "refresh_token",
                        "refresh_token",
                        session.refreshToken(),
                        "client_id",
                        session.clientId()));
        if (answer.status() != 200) {
            throw CliException.badInput(
                    "your sign-in has ended (" + answer.error() + "): run `polystack login --device` again");
        }
        return tokens(answer.body(), session.tokenEndpoint(), session.clientId(), session.refreshToken());
    }

    static boolean due(Session session, Instant now) {
        return session != null
                && session.expiresAt() != null
                && !now.plus(RENEW_BEFORE).isBefore(session.expiresAt());
    }

    private Tokens tokens(JsonNode answer, String tokenEndpoint, String clientId, String previousRefresh) {
        String access = answer.path("access_token").asText(null);
        if (access == null) {
            throw new CliException(ExitCodes.FAILED, "the identity provider's answer has no access token");
        }
        Instant expires = clock.instant().plusSeconds(answer.path("expires_in").asLong(60));
        String refresh = answer.path("refresh_token").asText(previousRefresh);
        return new Tokens(access, refresh == null ? null : new Session(tokenEndpoint, clientId, refresh, expires));
    }

    private record Form(int status, JsonNode body) {
        String error() {
            String error = body.path("error").asText("status " + status);
            String description = body.path("error_description").asText("");
            return description.isBlank() ? error : error + ": " + description;
        }
    }

    private JsonNode get(String url) {
        HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(30))
                .GET()
                .build());
        if (response.statusCode() != 200) {
            throw new CliException(ExitCodes.FAILED, url + " answered " + response.statusCode());
        }
        return parse(response.body());
    }

    private Form post(String url, Map<String, String> fields) {
        String body = fields.entrySet().stream()
                .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                        + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build());
        return new Form(response.statusCode(), parse(response.body()));
    }

    private HttpResponse<String> send(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new CliException(
                    ExitCodes.FAILED, "cannot reach " + request.uri().getHost() + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException(ExitCodes.CANCELLED_OR_TIMED_OUT, "interrupted");
        }
    }

    private static JsonNode parse(String text) {
        try {
            return text == null || text.isBlank() ? Client.JSON.createObjectNode() : Client.JSON.readTree(text);
        } catch (IOException e) {
            return Client.JSON.createObjectNode().put("error", "not JSON");
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException(ExitCodes.CANCELLED_OR_TIMED_OUT, "interrupted");
        }
    }
}
