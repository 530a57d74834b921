package dev.polystack.platform.security;

import dev.polystack.platform.common.PolystackConfig;
import jakarta.annotation.security.PermitAll;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * How clients sign in, without authentication: the console reads it to run the authorization code +
 * PKCE flow against the issuer with its public client, then calls the API with the access token.
 */
@Path("/api/v1/auth/config")
@Produces(MediaType.APPLICATION_JSON)
@PermitAll
@Tag(name = "Identity")
public class AuthConfigResource {

    @Inject
    PolystackConfig config;

    /** {@code oidc} is absent when only API tokens are accepted. */
    public record AuthConfig(boolean apiTokens, Oidc oidc) {
        /**
         * @param clientId    the console's public client (authorization code with PKCE)
         * @param cliClientId the CLI's public client (device authorization grant)
         */
        @Schema(name = "AuthConfigOidc")
        public record Oidc(String issuer, String clientId, String scopes, String cliClientId) {}
    }

    @GET
    @Operation(
            operationId = "getAuthConfig",
            summary =
                    "How to sign in: API tokens, and OIDC (PKCE for the console, device authorization for the CLI) when configured")
    public AuthConfig get() {
        PolystackConfig.Oidc oidc = config.oidc();
        if (!oidc.enabled() || oidc.issuer().isEmpty()) {
            return new AuthConfig(true, null);
        }
        return new AuthConfig(
                true,
                new AuthConfig.Oidc(
                        oidc.issuer().get(), oidc.consoleClientId(), "openid profile email", oidc.cliClientId()));
    }
}
