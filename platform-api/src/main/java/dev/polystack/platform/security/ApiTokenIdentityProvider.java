package dev.polystack.platform.security;

import dev.polystack.platform.identity.TokenService;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** Verifies API tokens against their stored hashes. */
@ApplicationScoped
public class ApiTokenIdentityProvider implements IdentityProvider<ApiTokenAuthenticationRequest> {

    @Inject
    TokenService tokens;

    @Override
    public Class<ApiTokenAuthenticationRequest> getRequestType() {
        return ApiTokenAuthenticationRequest.class;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(
            ApiTokenAuthenticationRequest request, AuthenticationRequestContext context) {
        return context.runBlocking(() -> tokens.authenticate(request.token())
                .map(ApiTokenIdentityProvider::identity)
                .orElseThrow(() -> new AuthenticationFailedException("invalid token")));
    }

    static SecurityIdentity identity(Caller caller) {
        QuarkusSecurityIdentity.Builder builder = QuarkusSecurityIdentity.builder()
                .setPrincipal(new QuarkusPrincipal(caller.name()))
                .addAttribute(Caller.ATTRIBUTE, caller)
                .addRole("user");
        if (caller.instanceAdmin()) {
            builder.addRole("instance-admin");
        }
        return builder.build();
    }
}
