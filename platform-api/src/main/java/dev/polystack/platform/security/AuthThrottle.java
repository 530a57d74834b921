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

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Slows down guessing: a client (by address) with more authentication failures per minute than
 * allowed is answered 429 for a minute, before any credential is looked at. Per replica, in memory.
 */
@ApplicationScoped
public class AuthThrottle {

    private static final long WINDOW_MILLIS = 60_000;

    private final Map<String, Window> windows = new ConcurrentHashMap<>();

    @Inject
    PolystackConfig config;

    private static final class Window {
        long start;
        int failures;
        long blockedUntil;
    }

    void register(@Observes Router router) {
        router.route().order(-950).handler(this::check);
    }

    void check(RoutingContext context) {
        Window window = windows.get(client(context.request()));
        long now = System.currentTimeMillis();
        if (window != null && window.blockedUntil > now) {
            ProblemType type = ProblemType.TOO_MANY_REQUESTS;
            context.response().setStatusCode(type.status())
                    .putHeader("Content-Type", ProblemDetail.MEDIA_TYPE)
                    .putHeader("Retry-After", Long.toString(Math.max(1, (window.blockedUntil - now) / 1000)))
                    .end(Json.encode(Map.of("type", type.uri().toString(), "title", type.title(), "status", type.status(),
                            "detail", "too many failed authentications from this address; retry later",
                            "instance", context.request().path(), "request_id", Problems.requestId(context.request()),
                            "errors", List.of())));
            return;
        }
        context.next();
    }

    /** Counts a failed authentication of the request's client. */
    public void failure(HttpServerRequest request) {
        long now = System.currentTimeMillis();
        Window window = windows.computeIfAbsent(client(request), k -> new Window());
        synchronized (window) {
            if (now - window.start > WINDOW_MILLIS) {
                window.start = now;
                window.failures = 0;
            }
            if (++window.failures > config.auth().maxFailures()) {
                window.blockedUntil = now + WINDOW_MILLIS;
            }
        }
        if (windows.size() > 100_000) {
            windows.entrySet().removeIf(e -> now - e.getValue().start > WINDOW_MILLIS && e.getValue().blockedUntil < now);
        }
    }

    private static String client(HttpServerRequest request) {
        return request.remoteAddress() == null ? "unknown" : request.remoteAddress().hostAddress();
    }
}
