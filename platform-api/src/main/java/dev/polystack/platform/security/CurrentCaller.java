package dev.polystack.platform.security;

import io.quarkus.security.UnauthorizedException;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;

/** The caller of the current request. */
@RequestScoped
public class CurrentCaller {

    @Inject
    SecurityIdentity identity;

    public Caller get() {
        Caller caller = identity.getAttribute(Caller.ATTRIBUTE);
        if (caller == null) {
            throw new UnauthorizedException();
        }
        return caller;
    }
}
