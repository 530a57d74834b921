package dev.polystack.platform.common.web;

import dev.polystack.platform.common.PolystackConfig;
import dev.polystack.platform.common.problem.ProblemType;
import dev.polystack.platform.common.problem.Problems;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import java.time.Duration;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Limits request bodies by the bytes read, whatever their framing: 1 MiB for the API, 32 MiB for
 * OpenTofu state (both configurable). A declared {@code Content-Length} over the limit is answered
 * with a 413 problem before anything is read; a body without one (chunked) is read up to the limit
 * and refused as soon as it passes it. Which limit applies is decided on the normalised path, the one
 * requests are routed by, so that {@code /api/state/../v1/...} counts as the API it reaches. HTTP/2 has
 * no chunked framing; a body sent there without a length is capped by Quarkus' own limit
 * ({@code quarkus.http.limits.max-body-size}, 64 MiB).
 */
@ApplicationScoped
public class BodyLimitFilter {

    /** How long the rest of a refused body is read and dropped before the connection closes. */
    static final Duration LINGER = Duration.ofSeconds(10);

    static final String LIMIT_KEY = BodyLimitFilter.class.getName() + ".limit";
    private static final Pattern FORM =
            Pattern.compile("\\s*(multipart/|application/x-www-form-urlencoded)", Pattern.CASE_INSENSITIVE);
    private static final Set<HttpMethod> WITHOUT_BODY =
            Set.of(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.OPTIONS, HttpMethod.DELETE);

    private final long apiLimit;
    private final long stateLimit;
    private final BodyHandler apiBody;
    private final BodyHandler stateBody;

    BodyLimitFilter(PolystackConfig config) {
        this.apiLimit = config.http().maxBodySize().asLongValue();
        this.stateLimit = config.state().maxBodySize().asLongValue();
        this.apiBody = reader(apiLimit);
        this.stateBody = reader(stateLimit);
    }

    private static BodyHandler reader(long limit) {
        return BodyHandler.create(false).setBodyLimit(limit).setMergeFormAttributes(false);
    }

    void register(@Observes Router router) {
        router.route().order(-900).handler(this::check);
    }

    void check(RoutingContext context) {
        String path;
        try {
            path = context.normalizedPath();
        } catch (IllegalArgumentException e) {
            Problems.write(context, ProblemType.VALIDATION, "the request path is malformed: " + e.getMessage());
            return;
        }
        boolean state = path.startsWith("/api/state/");
        long limit = state ? stateLimit : apiLimit;
        context.put(LIMIT_KEY, limit);
        HttpServerRequest request = context.request();
        String length = request.getHeader("Content-Length");
        if (length != null) {
            try {
                if (Long.parseLong(length.trim()) > limit) {
                    reject(context, limit);
                    return;
                }
            } catch (NumberFormatException e) {
                // Vert.x refuses a malformed Content-Length itself
            }
        }
        boolean noBody = length != null
                ? length.trim().equals("0")
                : WITHOUT_BODY.contains(request.method()) && request.getHeader("Transfer-Encoding") == null;
        // Quarkus REST pauses every request it takes, and Vert.x refuses to pause an HTTP/2 request that
        // has been read (quarkusio/quarkus#34393): an HTTP/2 body is left to the REST layer, limited by a
        // declared length above and by Quarkus' own limit on what it reads
        if (noBody || request.version() == HttpVersion.HTTP_2) {
            context.next();
            return;
        }
        String type = request.getHeader("Content-Type");
        if (type != null && FORM.matcher(type).lookingAt()) {
            // no endpoint takes a form, and the body reader would decode one (a malformed multipart body
            // without its boundary never ends): refused before reading, as the REST layer would
            Problems.write(
                    context,
                    ProblemType.UNSUPPORTED_MEDIA_TYPE,
                    "forms are not accepted; send JSON (or YAML where a manifest is expected)");
            return;
        }
        // reads the body, counting its bytes, and fails the request with 413 (answered by
        // RouterProblems) once it passes the limit; the REST layer then takes the body it read
        (state ? stateBody : apiBody).handle(context);
    }

    /** Answers with a 413 problem, reading and dropping the rest of the body before closing. */
    static void reject(RoutingContext context, long limit) {
        HttpServerRequest request = context.request();
        if (request.version() != HttpVersion.HTTP_2 && !request.isEnded()) {
            // Most clients read the answer only after sending the whole body, and report a broken pipe
            // instead of the 413 when the connection closes under them. So the rest of the body is read
            // and dropped (a lingering close) for at most LINGER; then the connection closes.
            context.response().putHeader("Connection", "close");
            try {
                request.handler(dropped -> {});
                request.resume();
            } catch (IllegalStateException alreadyRead) {
                // the body handler is reading it, and drops what comes after the limit
            }
            context.vertx()
                    .setTimer(LINGER.toMillis(), expired -> request.connection().close());
        }
        Problems.write(
                context,
                ProblemType.PAYLOAD_TOO_LARGE,
                "the request body is larger than the limit of " + limit + " bytes");
    }
}
