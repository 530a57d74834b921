package dev.polystack.platform.security;

import dev.polystack.platform.common.PolystackConfig;
import dev.polystack.platform.identity.OidcSignIn;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.SecurityIdentityAugmentor;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.jwt.JsonWebToken;

import java.util.Collection;
import java.util.List;

/** Turns an identity established by an OIDC bearer token into a Polystack caller (signing the user in). */
@ApplicationScoped
public class OidcCallerAugmentor implements SecurityIdentityAugmentor {

    @Inject
    OidcSignIn signIn;

    @Inject
    PolystackConfig config;

    @Override
    public Uni<SecurityIdentity> augment(SecurityIdentity identity, AuthenticationRequestContext context) {
        if (identity.isAnonymous()
                || identity.getAttribute(Caller.ATTRIBUTE) != null
                || !(identity.getPrincipal() instanceof JsonWebToken token)) {
            return Uni.createFrom().item(identity);
        }
        return context.runBlocking(() -> {
            Object groupsClaim = token.getClaim(config.oidc().groupsClaim());
            Collection<String> groups = groupsClaim instanceof Collection<?> values
                    ? values.stream()
                            .map(v -> String.valueOf(v).replace("\"", ""))
                            .toList()
                    : List.of();
            Caller caller = signIn.signIn(new OidcSignIn.Claims(
                    token.getIssuer(),
                    token.getSubject(),
                    token.getClaim("preferred_username"),
                    token.getClaim("email"),
                    token.getClaim("name"),
                    groups));
            return QuarkusSecurityIdentity.builder(identity)
                    .addAttribute(Caller.ATTRIBUTE, caller)
                    .addRole("user")
                    .build();
        });
    }
}
