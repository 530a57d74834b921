package dev.polystack.platform.common.web;

import dev.polystack.platform.common.problem.ProblemType;
import dev.polystack.platform.common.problem.Problems;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * Problems for requests that fail below the REST layer, which would otherwise get Vert.x's bare
 * answers without a body: URIs that are not URIs (such as {@code ?q=%ZZ} or {@code ?q={x}}), a
 * missing {@code Host}, a path whose percent-encoding cannot be decoded (Vert.x finds that while it
 * matches a route's path, and would answer a bare 400 and log the caller's mistake as an error). A NUL
 * ({@code %00}) in the URI is refused here too: no id, name or parameter may contain one, and
 * PostgreSQL cannot store it.
 */
@ApplicationScoped
public class RouterProblems {

    /**
     * Quarkus answers a request whose URI {@link URI} cannot parse with an empty 400 before any route
     * runs, unless this system property is true; {@link #checkUri} makes the same check and answers
     * with a problem. Read when the HTTP server starts, so it is set in the main method.
     */
    public static final String QUARKUS_URI_VALIDATION_OFF = "vertx.disableURIValidation";

    public static void takeOverUriValidation() {
        if (System.getProperty(QUARKUS_URI_VALIDATION_OFF) == null) {
            System.setProperty(QUARKUS_URI_VALIDATION_OFF, "true");
        }
    }

    void register(@Observes Router router) {
        router.route().order(-990).handler(this::checkUri);
        // Quarkus' own failure handler answers these with an empty body (and logs the Host case as an
        // error); this one runs first and answers with a problem instead
        router.route().order(-1000).failureHandler(this::bareFailure);
        // a failure no route's failure handler saw: Vert.x's router hands it to this handler instead of
        // logging it as an unhandled exception and answering with a bare status line
        router.errorHandler(400, this::undecodablePath);
    }

    void undecodablePath(RoutingContext context) {
        if (context.response().ended() || context.response().headWritten()) {
            return;
        }
        Throwable failure = context.failure();
        String reason = failure instanceof IllegalArgumentException && failure.getMessage() != null
                ? " (" + failure.getMessage() + ")"
                : "";
        Problems.write(
                context,
                ProblemType.VALIDATION,
                "the request is malformed: its path has a percent-encoding that cannot be decoded" + reason);
    }

    void checkUri(RoutingContext context) {
        String uri = context.request().uri();
        if (uri == null) {
            Problems.write(context, ProblemType.VALIDATION, "the request has no URI");
            return;
        }
        try {
            new URI(uri);
        } catch (URISyntaxException e) {
            // the same check Quarkus makes before routing (switched off in PolystackMain so that the
            // answer is a problem rather than an empty 400); the reason names the offending index
            Problems.write(
                    context,
                    ProblemType.VALIDATION,
                    "the request URI is malformed: " + e.getReason()
                            + (e.getIndex() >= 0 ? " at index " + e.getIndex() : ""));
            return;
        }
        if (uri.indexOf('\0') >= 0 || uri.toLowerCase(Locale.ROOT).contains("%00")) {
            Problems.write(context, ProblemType.VALIDATION, "the request URI must not contain the NUL character (%00)");
            return;
        }
        context.next();
    }

    void bareFailure(RoutingContext context) {
        int status = context.statusCode();
        if (context.response().ended() || context.response().headWritten()) {
            context.next();
            return;
        }
        if (status == 400) {
            Problems.write(
                    context,
                    ProblemType.VALIDATION,
                    "the request is malformed: its URI cannot be decoded or its Host header is missing or invalid");
        } else if (status == 413) {
            Long limit = context.get(BodyLimitFilter.LIMIT_KEY);
            if (limit != null) {
                BodyLimitFilter.reject(context, limit);
            } else {
                context.response().putHeader("Connection", "close");
                Problems.write(context, ProblemType.PAYLOAD_TOO_LARGE, "the request body is larger than the limit");
            }
        } else if (status == 417) {
            Problems.write(
                    context,
                    ProblemType.EXPECTATION_FAILED,
                    "the only expectation the server meets is `Expect: 100-continue`");
        } else {
            context.next();
        }
    }
}
