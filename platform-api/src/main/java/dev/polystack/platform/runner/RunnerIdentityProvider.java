package dev.polystack.platform.runner;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** Verifies runner JWTs against the registered runner's public key. */
@ApplicationScoped
public class RunnerIdentityProvider implements IdentityProvider<RunnerTokenRequest> {

    @Inject
    RunnerTokens tokens;

    @Override
    public Class<RunnerTokenRequest> getRequestType() {
        return RunnerTokenRequest.class;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(RunnerTokenRequest request, AuthenticationRequestContext context) {
        return context.runBlocking(() -> {
            RunnerCaller runner = tokens.verify(request.jwt())
                    .orElseThrow(() -> new AuthenticationFailedException("invalid runner token"));
            return QuarkusSecurityIdentity.builder()
                    .setPrincipal(new QuarkusPrincipal("runner:" + runner.orgSlug() + "/" + runner.runnerSlug()))
                    .addAttribute(RunnerCaller.ATTRIBUTE, runner)
                    .addRole(RunnerCaller.ROLE)
                    .build();
        });
    }
}
