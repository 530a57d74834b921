package dev.polystack.platform.console;

import dev.polystack.platform.common.PolystackConfig;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import java.net.URI;

/**
 * Serves the web console (static files of the web-console module under {@code META-INF/resources/console}):
 * every console URL without a file extension answers {@code index.html} so deep links work, hashed assets
 * are cached for good, and pages get a Content-Security-Policy that allows only this origin and the
 * OIDC issuer.
 */
@ApplicationScoped
public class ConsoleRoutes {

    static final String PREFIX = "/console";

    @Inject
    PolystackConfig config;

    void register(@Observes Router router) {
        router.getWithRegex("/|/console").order(-100).handler(ctx -> redirect(ctx, PREFIX + "/"));
        router.getWithRegex("/console/.*").order(-100).handler(this::serve);
    }

    private void serve(RoutingContext ctx) {
        String path = ctx.normalizedPath();
        ctx.response().putHeader("Content-Security-Policy", contentSecurityPolicy());
        if (path.startsWith(PREFIX + "/assets/")) {
            ctx.response().putHeader("Cache-Control", "public, max-age=31536000, immutable");
            ctx.next();
            return;
        }
        String last = path.substring(path.lastIndexOf('/') + 1);
        if (last.contains(".") && !last.equals("index.html")) {
            ctx.next();
            return;
        }
        ctx.response().putHeader("Cache-Control", "no-cache");
        if (path.equals(PREFIX + "/index.html")) {
            ctx.next();
        } else {
            ctx.reroute(PREFIX + "/index.html");
        }
    }

    String contentSecurityPolicy() {
        String connect = "'self'";
        if (config.oidc().enabled() && config.oidc().issuer().isPresent()) {
            URI issuer = URI.create(config.oidc().issuer().get());
            connect += " " + issuer.getScheme() + "://" + issuer.getAuthority();
        }
        // React Flow and CodeMirror position elements with style attributes
        return "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; "
                + "connect-src " + connect + "; frame-ancestors 'none'; base-uri 'self'; form-action 'self'";
    }

    private static void redirect(RoutingContext ctx, String location) {
        ctx.response().setStatusCode(302).putHeader("Location", location).end();
    }
}
