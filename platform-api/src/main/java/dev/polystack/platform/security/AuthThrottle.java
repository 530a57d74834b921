package dev.polystack.platform.security;

import dev.polystack.platform.common.PolystackConfig;
import dev.polystack.platform.common.problem.ProblemDetail;
import dev.polystack.platform.common.problem.ProblemType;
import dev.polystack.platform.common.problem.Problems;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.Json;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Slows down guessing without locking anyone else out. Failed authentications are counted per client
 * address (the forwarded one when the request came through a trusted proxy) and per credential. A
 * client over the limit is answered 429 for a minute when it sends no credential or a credential that
 * fails; a credential over the limit (a guess repeated, a revoked token in a loop) is answered 429 for
 * a minute from any address, before it is looked up. A valid credential is never refused, whatever its
 * address did, and the health endpoints are never throttled. Per replica, in memory: each replica
 * counts what it sees (documented in the README).
 */
@ApplicationScoped
public class AuthThrottle {

    private static final long WINDOW_MILLIS = 60_000;
    private static final int MAX_TRACKED = 100_000;
    private static final String ADDRESS =
            "too many failed authentications from this address; retry later with a valid credential";
    private static final String CREDENTIAL =
            "too many failed authentications with this credential; it is not accepted, retry later";

    private final Map<String, Window> addresses = new ConcurrentHashMap<>();
    private final Map<String, Window> credentials = new ConcurrentHashMap<>();

    @Inject
    PolystackConfig config;

    private static final class Window {
        long start;
        int failures;
        long blockedUntil;
    }

    /** Who is throttled until when, and why, for the answer. */
    public record Throttled(long untilMillis, String reason) {

        public long retryAfterSeconds(long now) {
            return Math.max(1, (untilMillis - now + 999) / 1000);
        }
    }

    void register(@Observes Router router) {
        router.route().order(-950).handler(this::check);
    }

    void check(RoutingContext context) {
        HttpServerRequest request = context.request();
        if (request.path().startsWith("/q/health")) {
            context.next();
            return;
        }
        long now = System.currentTimeMillis();
        String credential = request.getHeader("Authorization");
        Throttled throttled = null;
        if (credential != null) {
            // a credential that keeps failing is refused before it is looked up; any other one is checked
            Window window = credentials.isEmpty() ? null : credentials.get(key(credential));
            if (blocked(window, now)) {
                throttled = new Throttled(window.blockedUntil, CREDENTIAL);
            }
        } else {
            Window window = addresses.get(client(request));
            if (blocked(window, now)) {
                throttled = new Throttled(window.blockedUntil, ADDRESS);
            }
        }
        if (throttled == null) {
            context.next();
            return;
        }
        ProblemType type = ProblemType.TOO_MANY_REQUESTS;
        context.response()
                .setStatusCode(type.status())
                .putHeader("Content-Type", ProblemDetail.MEDIA_TYPE)
                .putHeader("Retry-After", Long.toString(throttled.retryAfterSeconds(now)))
                .end(Json.encode(Map.of(
                        "type",
                        type.uri().toString(),
                        "title",
                        type.title(),
                        "status",
                        type.status(),
                        "detail",
                        throttled.reason(),
                        "instance",
                        request.path(),
                        "request_id",
                        Problems.requestId(request),
                        "errors",
                        List.of())));
    }

    /**
     * Counts a failed authentication of the request's client address and credential. Returns how the
     * request is throttled now, if it is: the failure is then answered 429 instead of 401.
     */
    public Optional<Throttled> failure(HttpServerRequest request) {
        long now = System.currentTimeMillis();
        String credential = request.getHeader("Authorization");
        Window address = count(addresses, client(request), now);
        Window attempted = credential == null ? null : count(credentials, key(credential), now);
        if (attempted != null && attempted.blockedUntil > now) {
            return Optional.of(new Throttled(attempted.blockedUntil, CREDENTIAL));
        }
        if (address.blockedUntil > now) {
            return Optional.of(new Throttled(address.blockedUntil, ADDRESS));
        }
        return Optional.empty();
    }

    private Window count(Map<String, Window> windows, String key, long now) {
        if (windows.size() > MAX_TRACKED) {
            windows.entrySet()
                    .removeIf(e -> now - e.getValue().start > WINDOW_MILLIS && e.getValue().blockedUntil < now);
        }
        Window window = windows.computeIfAbsent(key, k -> new Window());
        synchronized (window) {
            if (now - window.start > WINDOW_MILLIS) {
                window.start = now;
                window.failures = 0;
            }
            if (++window.failures > config.auth().maxFailures()) {
                window.blockedUntil = now + WINDOW_MILLIS;
            }
        }
        return window;
    }

    private static boolean blocked(Window window, long now) {
        return window != null && window.blockedUntil > now;
    }

    /** A credential is tracked by its SHA-256, never as sent. */
    private static String key(String credential) {
        try {
            return HexFormat.of()
                    .formatHex(
                            MessageDigest.getInstance("SHA-256").digest(credential.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The client's address: Vert.x gives the forwarded one when the request came through a trusted proxy. */
    private static String client(HttpServerRequest request) {
        return request.remoteAddress() == null
                ? "unknown"
                : request.remoteAddress().hostAddress();
    }
}
