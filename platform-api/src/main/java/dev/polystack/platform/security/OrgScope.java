package dev.polystack.platform.security;

import java.util.UUID;

/**
 * An organization the caller may act in, and with which role. Services take it as proof that access
 * was checked, and scope every query by {@link #orgId()}.
 */
public record OrgScope(UUID orgId, String orgSlug, Caller caller, Role role) {

    public boolean may(Role needed) {
        return role.includes(needed);
    }
}
