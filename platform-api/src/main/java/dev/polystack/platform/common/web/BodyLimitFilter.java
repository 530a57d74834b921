package dev.polystack.platform.common.web;

import dev.polystack.platform.common.problem.ProblemType;
import dev.polystack.platform.common.problem.Problems;
import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.inject.ConfigProperty;


/**
 * Answers an API request whose declared body is over the limit (1 MiB) with a 413 problem before
 * reading it. The state backend takes larger bodies; Vert.x caps every body at 64 MiB.
 */
@ApplicationScoped
public class BodyLimitFilter {

    @ConfigProperty(name = "polystack.http.max-body-size", defaultValue = "1M")
    MemorySize limit;

    void register(@Observes Router router) {
        router.route().order(-900).handler(this::check);
    }

    void check(RoutingContext context) {
        String length = context.request().getHeader("Content-Length");
        if (length != null && !context.request().path().startsWith("/api/state/")) {
            try {
                if (Long.parseLong(length.trim()) > limit.asLongValue()) {
                    reject(context);
                    return;
                }
            } catch (NumberFormatException e) {
                // Vert.x rejects a malformed Content-Length itself
            }
        }
        context.next();
    }

    private void reject(RoutingContext context) {
        context.response().putHeader("Connection", "close");
        Problems.write(context, ProblemType.PAYLOAD_TOO_LARGE, "the request body is larger than the limit of " + limit.asLongValue() + " bytes");
    }
}
