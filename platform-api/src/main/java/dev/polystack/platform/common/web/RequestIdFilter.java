package dev.polystack.platform.common.web;

import dev.polystack.platform.common.problem.Problems;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.MDC;

import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Gives every HTTP request an id: the caller's {@code X-Request-Id} when it is sane, a new UUID
 * otherwise. It is echoed in the response, put in the log context and quoted in every problem.
 */
@ApplicationScoped
public class RequestIdFilter {

    private static final Pattern SANE = Pattern.compile("[A-Za-z0-9._:-]{1,100}");

    void register(@Observes Router router) {
        router.route().order(-1000).handler(this::assignRequestId);
    }

    void assignRequestId(RoutingContext context) {
        String id = context.request().getHeader(Problems.REQUEST_ID_HEADER);
        if (id == null || !SANE.matcher(id).matches()) {
            id = UUID.randomUUID().toString();
            context.request().headers().set(Problems.REQUEST_ID_HEADER, id);
        }
        context.response().putHeader(Problems.REQUEST_ID_HEADER, id);
        MDC.put("request_id", id);
        context.next();
    }
}
