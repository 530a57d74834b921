package dev.polystack.platform.identity;

import dev.polystack.platform.security.Role;

/** One organization the caller belongs to, as shown by {@code /me}. */
public record MembershipView(String org, Role role) {}
