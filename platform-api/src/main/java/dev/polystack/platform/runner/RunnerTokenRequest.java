package dev.polystack.platform.runner;

import io.quarkus.security.identity.request.BaseAuthenticationRequest;

/** A bearer JWT presented to the runner protocol. */
public class RunnerTokenRequest extends BaseAuthenticationRequest {

    private final String jwt;

    public RunnerTokenRequest(String jwt) {
        this.jwt = jwt;
    }

    public String jwt() {
        return jwt;
    }
}
