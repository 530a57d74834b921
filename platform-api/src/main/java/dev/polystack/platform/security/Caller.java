package dev.polystack.platform.security;

import java.util.UUID;

/**
 * Who is making a request, as established by authentication.
 *
 * @param principalId   the user or service user
 * @param name          username, or {@code service:<id>} for service users
 * @param serviceUser   whether this is a service user (bound to one organization)
 * @param instanceAdmin whether this principal administers the whole instance
 */
public record Caller(UUID principalId, String name, boolean serviceUser, boolean instanceAdmin) {

    /** The SecurityIdentity attribute that carries the caller. */
    public static final String ATTRIBUTE = "polystack.caller";
}
