package dev.polystack.platform.identity;

import java.util.List;

/** Who the caller is. */
public record MeView(
        String name, String email, boolean serviceUser, boolean instanceAdmin, List<MembershipView> memberships) {}
