package dev.polystack.platform.runner;

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

/** Reads the runner protocol's {@code Authorization: Bearer <EdDSA JWT>} on {@code /api/runner/} paths only. */
@ApplicationScoped
public class RunnerAuthenticationMechanism implements HttpAuthenticationMechanism {

    static final String PATH = "/api/runner/";

    @Override
    public Uni<SecurityIdentity> authenticate(RoutingContext context, IdentityProviderManager identityProviderManager) {
        if (!context.request().path().startsWith(PATH)) {
            return Uni.createFrom().optional(Optional.empty());
        }
        String header = context.request().getHeader("Authorization");
        if (header == null || header.length() < 8 || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return Uni.createFrom().optional(Optional.empty());
        }
        String token = header.substring(7).trim();
        if (token.startsWith("pst_")) {
            return Uni.createFrom().optional(Optional.empty());
        }
        return identityProviderManager.authenticate(new RunnerTokenRequest(token));
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
        return Set.of(RunnerTokenRequest.class);
    }
}
