package dev.polystack.platform.security;

import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.AuthenticationRequest;
import io.quarkus.vertx.http.runtime.security.ChallengeData;
import io.quarkus.vertx.http.runtime.security.HttpAuthenticationMechanism;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.Optional;
import java.util.Set;

/** Reads {@code Authorization: Bearer pst_...} and hands the token to {@link ApiTokenIdentityProvider}. */
@ApplicationScoped
public class ApiTokenAuthenticationMechanism implements HttpAuthenticationMechanism {

    static final String PREFIX = "pst_";

    @Override
    public Uni<SecurityIdentity> authenticate(RoutingContext context, IdentityProviderManager identityProviderManager) {
        String token = bearerToken(context);
        if (token == null
                || !token.startsWith(PREFIX)
                || context.request().path().startsWith("/api/runner/")) {
            return Uni.createFrom().optional(Optional.empty());
        }
        return identityProviderManager.authenticate(new ApiTokenAuthenticationRequest(token));
    }

    /** Before the OIDC mechanism, which would try to read these tokens as its own. */
    @Override
    public int getPriority() {
        return DEFAULT_PRIORITY + 500;
    }

    @Override
    public Uni<ChallengeData> getChallenge(RoutingContext context) {
        return Uni.createFrom().item(new ChallengeData(401, "WWW-Authenticate", "Bearer"));
    }

    @Override
    public Set<Class<? extends AuthenticationRequest>> getCredentialTypes() {
        return Set.of(ApiTokenAuthenticationRequest.class);
    }

    static String bearerToken(RoutingContext context) {
        String header = context.request().getHeader("Authorization");
        if (header == null || header.length() < 8 || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        return header.substring(7).trim();
    }
}
