package dev.polystack.platform.security;

import io.quarkus.security.identity.request.BaseAuthenticationRequest;

/** A bearer token that looks like a Polystack API token ({@code pst_...}). */
public class ApiTokenAuthenticationRequest extends BaseAuthenticationRequest {

    private final String token;

    public ApiTokenAuthenticationRequest(String token) {
        this.token = token;
    }

    public String token() {
        return token;
    }
}
